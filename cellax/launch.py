"""``python -m cellax.launch``: start a distributed job on this host with msrun's flags.

Each of ``--local_worker_num`` workers runs ``python task_script args`` with msrun's
environment (``MS_WORKER_NUM``, ``MS_SCHED_HOST``, ``MS_SCHED_PORT``, ``MS_ROLE=MS_WORKER``,
``MS_NODE_ID``/``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID``, ``MS_TOPO_TIMEOUT``) and logs to
``<log_dir>/worker_<rank>.log``; ``cellax.communication.init()`` then joins them with
``jax.distributed`` (its coordinator runs in rank 0 on ``master_port + 1``; no scheduler
process is needed). The launcher waits, stops every worker when one fails, and exits with
the first non-zero status.

Example (2 workers on one host)::

    python -m cellax.launch --worker_num=2 --local_worker_num=2 --master_port=8118 \\
        --log_dir=logs train.py --epochs 1
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings

__all__ = ["main", "parser"]

_IGNORED = ("bind_core", "bind_numa", "sim_level", "sim_rank_id", "rank_table_file")


def parser() -> argparse.ArgumentParser:
    """The argument parser (msrun 2.10's flags and defaults)."""
    p = argparse.ArgumentParser(
        prog="python -m cellax.launch", description="Launch a cellax distributed job (msrun)."
    )
    p.add_argument("--worker_num", type=int, default=8)
    p.add_argument("--local_worker_num", type=int, default=8)
    p.add_argument("--master_addr", default="127.0.0.1")
    p.add_argument("--master_port", type=int, default=8118)
    p.add_argument("--node_rank", type=int, default=-1)
    p.add_argument("--log_dir", default=".")
    p.add_argument("--join", default=False, type=lambda s: str(s).lower() == "true")
    p.add_argument("--cluster_time_out", type=int, default=600)
    p.add_argument("--bind_core", default=None)
    p.add_argument("--bind_numa", default=None)
    p.add_argument("--sim_level", type=int, default=-1)
    p.add_argument("--sim_rank_id", type=int, default=-1)
    p.add_argument("--rank_table_file", default=None)
    p.add_argument("--worker_log_name", default=None)
    p.add_argument("--tail_worker_log", default="-1")
    p.add_argument("task_script")
    p.add_argument("task_script_args", nargs=argparse.REMAINDER)
    return p


def _check(args) -> None:
    if args.worker_num < 1 or args.local_worker_num < 1:
        raise SystemExit("cellax.launch: --worker_num and --local_worker_num must be >= 1.")
    if args.local_worker_num > args.worker_num:
        raise SystemExit("cellax.launch: --local_worker_num can not exceed --worker_num.")
    if args.node_rank < 0 and args.local_worker_num != args.worker_num:
        raise SystemExit(
            "cellax.launch: a multi-node job needs --node_rank on every node (ranks are "
            "node_rank * local_worker_num + i)."
        )
    for name in _IGNORED:
        value = getattr(args, name)
        if value not in (None, -1, "-1", False, "False"):
            warnings.warn(f"cellax.launch: --{name} is accepted and ignored.", stacklevel=2)


def _env(args, index: int) -> dict:
    node = max(args.node_rank, 0)
    rank = node * args.local_worker_num + index
    env = dict(os.environ)
    env.update(
        MS_WORKER_NUM=str(args.worker_num),
        MS_LOCAL_WORKER_NUM=str(args.local_worker_num),
        MS_SCHED_HOST=args.master_addr,
        MS_SCHED_PORT=str(args.master_port),
        MS_TOPO_TIMEOUT=str(args.cluster_time_out),
        MS_ROLE="MS_WORKER",
        MS_NODE_ID=str(rank),
        RANK_ID=str(rank),
        RANK_SIZE=str(args.worker_num),
        DEVICE_ID=str(index),
    )
    return env


def _stop(procs) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 10
    for proc in procs:
        try:
            proc.wait(max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv=None) -> int:
    """Run the job; returns the exit status (0, or the first failing worker's)."""
    args = parser().parse_args(argv)
    _check(args)
    os.makedirs(args.log_dir, exist_ok=True)
    procs, logs = [], []
    try:
        for index in range(args.local_worker_num):
            env = _env(args, index)
            name = args.worker_log_name or f"worker_{env['RANK_ID']}"
            log = open(os.path.join(args.log_dir, f"{name}.log"), "w")  # noqa: SIM115
            logs.append(log)
            command = [sys.executable, args.task_script, *args.task_script_args]
            procs.append(subprocess.Popen(command, env=env, stdout=log, stderr=log))
        while True:
            codes = [p.poll() for p in procs]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                _stop(procs)
                print(f"cellax.launch: a worker exited with {failed[0]}; stopped the rest.")
                return failed[0]
            if all(c == 0 for c in codes):
                return 0
            time.sleep(0.1)
    except KeyboardInterrupt:
        _stop(procs)
        return 130
    finally:
        for log in logs:
            log.close()


if __name__ == "__main__":
    sys.exit(main())
