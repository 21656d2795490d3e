"""Python stubs of the committed ``.proto`` files (``schemas/proto/``), generated on first use.

The ``.proto`` files are the source of truth; their stubs are never committed. :func:`load_stubs`
runs ``grpc_tools.protoc`` into a git-ignored folder beside this module when the stubs are missing
or older than a ``.proto`` file (a content hash, so a fresh clone and an edited proto both
regenerate), then puts that folder on ``sys.path`` so the stubs import under their proto package,
exactly as a client generated from the same files imports them
(``from nvidia.omniverse.notifications.publisher.v1beta import event_publisher_pb2``).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

def _proto_root() -> Path:
    """``schemas/proto`` of the source tree (an editable install), else of the working directory (an
    image that copies ``schemas/`` beside an installed package, as deploy/compose/Dockerfile does)."""
    source_tree = Path(__file__).resolve().parents[2] / "schemas" / "proto"
    return source_tree if source_tree.is_dir() else Path.cwd() / "schemas" / "proto"


PROTO_ROOT = _proto_root()
OUTPUT = Path(__file__).resolve().parent / "generated"
STAMP = "proto.sha256"
PUBLISHER = "nvidia.omniverse.notifications.publisher.v1beta"
CONSUMER = "nvidia.omniverse.notifications.consumer.v1beta"


class StubsError(RuntimeError):
    """protoc refused a ``.proto`` file; the message is protoc's."""


def proto_files() -> list[Path]:
    """Every committed ``.proto`` file, relative to the proto root, in a stable order."""
    return sorted(path.relative_to(PROTO_ROOT) for path in PROTO_ROOT.rglob("*.proto"))


def protos_digest() -> str:
    """One hash of every ``.proto`` file's path and content."""
    digest = hashlib.sha256()
    for relative in proto_files():
        digest.update(str(relative).encode() + b"\0" + (PROTO_ROOT / relative).read_bytes() + b"\0")
    return digest.hexdigest()


def generate(output: Path) -> None:
    """Run protoc (grpcio-tools) on every ``.proto`` file into OUTPUT: messages, type hints, services."""
    from grpc_tools import protoc  # build-time tool: only needed when the stubs are (re)generated

    include = Path(protoc.__file__).resolve().parent / "_proto"  # google/protobuf/*.proto
    output.mkdir(parents=True, exist_ok=True)
    args = ["protoc", f"-I{PROTO_ROOT}", f"-I{include}", f"--python_out={output}", f"--pyi_out={output}",
            f"--grpc_python_out={output}", *map(str, proto_files())]
    if protoc.main(args) != 0:
        raise StubsError(f"protoc failed on {PROTO_ROOT}; see its message above")
    for folder in [path for path in output.rglob("*") if path.is_dir()]:
        (folder / "__init__.py").touch()  # plain packages: importable without namespace-package lookups


def _current(digest: str) -> bool:
    stamp = OUTPUT / STAMP
    return stamp.exists() and stamp.read_text(encoding="utf-8") == digest


def ensure_stubs() -> Path:
    """The stubs folder, regenerated when stale; concurrent processes each swap in a whole folder."""
    digest = protos_digest()
    if not _current(digest):
        scratch = Path(tempfile.mkdtemp(prefix=".generating-", dir=OUTPUT.parent))
        try:
            generate(scratch)
            (scratch / STAMP).write_text(digest, encoding="utf-8")
            if not _current(digest):  # another process may have finished first
                stale = OUTPUT.with_name(f".stale-{os.getpid()}")
                if OUTPUT.exists():
                    OUTPUT.rename(stale)
                scratch.rename(OUTPUT)
                shutil.rmtree(stale, ignore_errors=True)
        except OSError:
            if not _current(digest):
                raise
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    if str(OUTPUT) not in sys.path:
        sys.path.append(str(OUTPUT))
    return OUTPUT


@cache
def load_stubs(package: str, name: str) -> tuple[ModuleType, ModuleType]:
    """The ``<name>_pb2`` and ``<name>_pb2_grpc`` modules of a proto PACKAGE."""
    ensure_stubs()
    return (importlib.import_module(f"{package}.{name}_pb2"),
            importlib.import_module(f"{package}.{name}_pb2_grpc"))


def publisher_stubs() -> tuple[ModuleType, ModuleType]:
    """The publisher service's messages and service stubs (seed 000)."""
    return load_stubs(PUBLISHER, "event_publisher")


def consumer_stubs() -> tuple[ModuleType, ModuleType]:
    """The consumer service's messages and service stubs (seed 000)."""
    return load_stubs(CONSUMER, "event_consumer")
