from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RuntimeResponse")


@_attrs_define
class RuntimeResponse:
    """
    Attributes:
        gc_collections (int):
        num_cpu (int):
        python_version (str):
        rss_bytes (int):
        threads (int):
    """

    gc_collections: int
    num_cpu: int
    python_version: str
    rss_bytes: int
    threads: int

    def to_dict(self) -> dict[str, Any]:
        gc_collections = self.gc_collections

        num_cpu = self.num_cpu

        python_version = self.python_version

        rss_bytes = self.rss_bytes

        threads = self.threads

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "gcCollections": gc_collections,
                "numCPU": num_cpu,
                "pythonVersion": python_version,
                "rssBytes": rss_bytes,
                "threads": threads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        gc_collections = d.pop("gcCollections")

        num_cpu = d.pop("numCPU")

        python_version = d.pop("pythonVersion")

        rss_bytes = d.pop("rssBytes")

        threads = d.pop("threads")

        runtime_response = cls(
            gc_collections=gc_collections,
            num_cpu=num_cpu,
            python_version=python_version,
            rss_bytes=rss_bytes,
            threads=threads,
        )

        return runtime_response
