"""Error answers as exceptions: the hub answers every error with ``application/problem+json`` (RFC 9457)
whose ``code`` names the error (``missing_idempotency_key``, ``subscription_not_found``, ...)."""

from __future__ import annotations

import json
from typing import Any

import httpx


class HubProblem(Exception):
    """An error answer of the hub: its HTTP status, its ``code`` and the whole problem document."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code", ""))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        super().__init__(f"{status} {self.code or self.title}: {self.detail}".rstrip(": "))


def problem_of(status: int, content: bytes) -> HubProblem:
    """The :class:`HubProblem` of an error answer's STATUS and body (its problem+json, or its text)."""
    problem: dict[str, Any]
    try:
        found = json.loads(content)
        problem = found if isinstance(found, dict) else {"detail": content.decode(errors="replace")}
    except ValueError:  # not JSON: a proxy's page, say
        problem = {"detail": content.decode(errors="replace")[:500]}
    return HubProblem(status, problem)


def raise_for_problem(response: httpx.Response) -> None:
    """An httpx response hook: raise :class:`HubProblem` for a 4xx or 5xx answer (after any retry)."""
    if response.status_code >= 400:
        raise problem_of(response.status_code, response.read())


async def araise_for_problem(response: httpx.Response) -> None:
    """The same hook for an ``httpx.AsyncClient`` (whose hooks are coroutines)."""
    if response.status_code >= 400:
        raise problem_of(response.status_code, await response.aread())
