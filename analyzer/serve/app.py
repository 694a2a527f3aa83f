"""The web app of ``euchre serve`` (FastAPI on uvicorn, the page a jinja2 template with its
script and style shipped in the package: nothing is fetched from the internet).

Endpoints (docs/serve.md): the page ``/``; ``/api/spec`` the variants and house rules the
form is built from; ``/api/table`` the deck, whose turn it is and the calls they may say;
``/api/odds`` the answer of ``euchre odds --json`` for the same options; ``/api/jobs/odds``
the same question run in the background with progress (``GET /api/jobs/{id}``) and cancel
(``DELETE``); ``/api/review`` the review of a record. Bad input is HTTP 422 with
``{"error": "one line"}``."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import anyio
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..compute.runner import size_limit
from ..errors import UserError
from ..game.records import load_record, read_json
from ..outputs import strict
from ..strategy.defaults import DEFAULT_STRATEGY, LIMIT_SECONDS, REVIEW_WORLDS
from .jobs import Busy, JobRunner
from .questions import odds_arguments, spec, table_state

HERE = Path(__file__).parent
MAX_DEALS = 200_000
MAX_WORLDS = 1_000
MAX_BODY = 1 << 20  # bytes of a request body (a record is a few kilobytes)
REVIEW_KEYS = {"record", "method", "worlds", "seed", "call_deals", "others"}


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before it is read."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            return await _too_large(self.limit, send)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise UserError(f"the request body is over {self.limit:,} bytes")
            return message

        return await self.app(scope, limited, send)


async def _too_large(limit: int, send) -> None:
    body = json.dumps({"error": f"the request body is over {limit:,} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _user_error(request: Request, exc: UserError):
    return _error(409 if isinstance(exc, Busy) else 422, str(exc))


async def _bad_request(request: Request, exc: RequestValidationError):
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return _error(422, f"{where}: {first.get('msg', 'invalid request')}".lstrip(": "))


async def _internal(request: Request, exc: Exception):
    return _error(500, f"internal error: {type(exc).__name__}")


def create_app(max_deals: int = MAX_DEALS, max_worlds: int = MAX_WORLDS) -> FastAPI:
    """The app: ``max_deals``/``max_worlds`` cap what one request may ask."""
    runner = JobRunner()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        runner.cancel_all()  # shutting down: running questions stop after their chunk

    app = FastAPI(title="Euchre strategy analyzer", docs_url=None, redoc_url=None,
                  lifespan=lifespan,
                  description="The analyzer's questions over HTTP; see docs/serve.md.")
    app.state.runner, app.state.max_deals, app.state.max_worlds = runner, max_deals, max_worlds
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_exception_handler(UserError, _user_error)
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.add_exception_handler(Exception, _internal)
    app.include_router(router)
    return app


router = APIRouter()
templates = Jinja2Templates(directory=HERE / "templates")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def page(request: Request):
    """The page."""
    return templates.TemplateResponse(request, "index.html",
                                      {"max_deals": request.app.state.max_deals,
                                       "max_worlds": request.app.state.max_worlds})


@router.get("/api/spec")
def api_spec(request: Request) -> dict:
    """The variants, their house rules and defaults (the form is built from them)."""
    return {**spec(), "max_deals": request.app.state.max_deals,
            "max_worlds": request.app.state.max_worlds}


@router.get("/api/table")
def api_table(request: Request) -> dict:
    """The deck, the hand size, whose turn it is after ``auction`` and the calls that seat may
    say (parameters: variant, house rules, seat, dealer, upcard, auction)."""
    return table_state(request.query_params)


def _odds_work(request: Request):
    from ..questions.odds import odds

    state = request.app.state
    args = odds_arguments(request.query_params, state.max_deals, state.max_worlds)
    label = f"{args['variant']} odds of {args['hand']}"

    def work() -> dict:
        with size_limit(LIMIT_SECONDS):
            return strict(odds(**args, progress=False).to_dict())
    return label, work


@router.get("/api/odds")
def api_odds(request: Request):
    """The odds of every legal call, as ``euchre odds --json`` prints them for the same
    options (parameters: the options of ``euchre odds``, dashes as underscores; repeat
    ``given`` for several conditions)."""
    job = request.app.state.runner.start(*_odds_work(request))
    job.finished.wait()
    return _finished(job)


@router.post("/api/jobs/odds", status_code=202)
def api_start_odds(request: Request) -> dict:
    """Start the question of ``/api/odds`` in the background: its status (poll
    ``/api/jobs/{id}``)."""
    return request.app.state.runner.start(*_odds_work(request)).status()


@router.get("/api/jobs/{job_id}")
def api_job(job_id: str, request: Request):
    """A question's progress (deals done of total, seconds left) and its answer."""
    job = request.app.state.runner.get(job_id)
    return _error(404, f"no question {job_id}") if job is None else job.status()


@router.delete("/api/jobs/{job_id}")
def api_cancel(job_id: str, request: Request):
    """Cancel a question: it stops after the chunk it is on, with the estimate so far."""
    job = request.app.state.runner.cancel(job_id)
    return _error(404, f"no question {job_id}") if job is None else job.status()


@router.post("/api/review")
async def api_review(request: Request):
    """Review a played hand: the body is ``{"record": ...}`` (a record as ``euchre play
    --json`` writes it, as an object or its text) with optional ``method`` (dd or pimc),
    ``worlds``, ``seed``, ``call_deals``, ``others``; the answer is what ``euchre review
    --json`` prints."""
    try:
        body = json.loads(await request.body() or b"null")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"the body is not JSON: {e}") from None
    state = request.app.state
    job = state.runner.start(*_review_work(body, state.max_deals, state.max_worlds))
    await anyio.to_thread.run_sync(job.finished.wait)
    return _finished(job)


def _finished(job) -> JSONResponse:
    if job.error is not None:
        return _error(422, job.error) if not job.error.startswith("internal error") \
            else _error(500, job.error)
    return JSONResponse(job.result)


def _review_work(body, max_deals: int, max_worlds: int):
    """The review job of a request body (see ``/api/review``); UserError when bad."""
    from ..questions.review import review
    from ..questions.review_calls import CALL_DEALS

    if not isinstance(body, dict) or "record" not in body:
        raise UserError('the body must be a JSON object with the record: {"record": ...}')
    unknown = set(body) - REVIEW_KEYS
    if unknown:
        raise UserError(f"unknown field {sorted(unknown)[0]!r}")
    data = body["record"]
    if isinstance(data, str):
        data = read_json(data, "the record")
    if not isinstance(data, dict):
        raise UserError("the record must be a JSON object (one line of euchre play --json)")
    record = load_record(data)
    method = body.get("method", "dd")
    numbers = {}
    for key, default, top in (("worlds", REVIEW_WORLDS, max_worlds), ("seed", 0, 2**63 - 1),
                              ("call_deals", CALL_DEALS, max_deals)):
        value = body.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise UserError(f"{key} must be a whole number from 0 to {top:,}")
        numbers[key] = value
    others = body.get("others", DEFAULT_STRATEGY)
    if not isinstance(method, str) or not isinstance(others, str):
        raise UserError("method and others are names, e.g. dd and analyzer")

    def work() -> dict:
        with size_limit(LIMIT_SECONDS):
            result = review(record, method, max(1, numbers["worlds"]), numbers["seed"],
                            numbers["call_deals"], others)
        return strict(result.to_dict())
    return "review of a hand", work
