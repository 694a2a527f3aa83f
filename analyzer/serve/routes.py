"""The web app of ``euchre serve`` (FastAPI on uvicorn, the page a jinja2 template with its
script and style shipped in the package: nothing is fetched from the internet).

Endpoints (docs/serve.md): the page ``/``; ``/api/spec`` the variants and house rules the
form is built from; ``/api/table`` the deck, whose turn it is and the calls they may say,
and in the play the contract, the tricks and the cards the seat to play may play;
``/api/odds`` the answer of ``euchre odds --json`` for the same options; ``/api/jobs/odds``
the same question run in the background with progress (``GET /api/jobs/{id}``) and cancel
(``DELETE``); ``/api/jobs`` the question running now, whoever asked it (``DELETE
/api/jobs/running`` cancels it); ``/api/practice`` a position to practise on;
``/api/review`` the review of a record; ``/api/play`` a hand played against the analyzer,
every decision graded (``POST /api/play/{id}`` a decision). Bad input is HTTP 422 with
``{"error": "one line"}``;
a question while another runs is 409 with ``Retry-After``. Who may ask at all is
:mod:`analyzer.serve.guard`'s business."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import anyio
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..errors import UserError
from ..numbers import json_loads
from ..outputs import strict
from .guard import LOOPBACK_NAMES, Guard
from .jobs import Busy, JobRunner
from .play_store import PlayStore, UnknownHand
from .requests import (
    Limits,
    limited,
    odds_request_of,
    review_work,
    rules_of,
    served,
    served_text,
    spec,
    table_state,
)

HERE = Path(__file__).parent
MAX_BODY = 1 << 20  # bytes of a request body (a record is a few kilobytes)
QUEUE_SECONDS = 10.0  # a request waits this long for the question before it, then gets 409
POLL_SECONDS = 0.1  # how often a waiting request looks for its answer or a gone client
# the page's icon, inline: a browser asks for /favicon.ico, and a 404 is an error in its log
ICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" '
        b'height="16" rx="3" fill="#396"/><text x="8" y="12" font-size="10" '
        b'text-anchor="middle" fill="#fff">E</text></svg>')


def _error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _user_error(request: Request, exc: UserError):
    if isinstance(exc, Busy):
        return _error(409, str(exc), {"Retry-After": str(exc.retry_after)})
    if isinstance(exc, UnknownHand):
        return _error(404, str(exc))
    return _error(422, served_text(str(exc)))


async def _bad_request(request: Request, exc: RequestValidationError):
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return _error(422, f"{where}: {first.get('msg', 'invalid request')}".lstrip(": "))


async def _internal(request: Request, exc: Exception):
    return _error(500, f"internal error: {type(exc).__name__}")


def create_app(limits: Limits | None = None, hosts: frozenset | None = LOOPBACK_NAMES,
               token: str | None = None) -> FastAPI:
    """The app: ``limits`` cap what one request may ask; ``hosts`` the names its requests
    may be addressed to (None: any), ``token`` the secret each must carry (None: none)."""
    runner = JobRunner()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        runner.cancel_all()  # shutting down: running questions stop after their piece

    app = FastAPI(title="Euchre strategy analyzer", docs_url=None, redoc_url=None,
                  lifespan=lifespan,
                  description="The analyzer's questions over HTTP; see docs/serve.md.")
    app.state.runner, app.state.limits = runner, limits or Limits()
    app.state.plays = PlayStore()
    app.add_middleware(Guard, hosts=hosts, token=token, body_limit=MAX_BODY)
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
    limits = request.app.state.limits
    return templates.TemplateResponse(request, "index.html",
                                      {"max_deals": limits.max_deals,
                                       "max_worlds": limits.max_worlds})


@router.get("/favicon.ico", include_in_schema=False)
def icon():
    """The page's icon."""
    return Response(ICON, media_type="image/svg+xml")


@router.get("/api/spec")
def api_spec(request: Request) -> dict:
    """The variants, their house rules and defaults, the ways to play the cards and the
    strategies (the form is built from them), and this server's caps."""
    limits = request.app.state.limits
    return {**spec(limits), "max_deals": limits.max_deals, "max_worlds": limits.max_worlds}


@router.get("/api/table")
def api_table(request: Request) -> dict:
    """The deck, the hand size, the rules in force, whose turn it is after ``auction`` and
    the calls that seat may say (parameters: variant, house rules, seat, dealer, upcard,
    auction); once the auction is over, ``play``: the contract, the tricks, whose turn it
    is to play and the cards that seat may play (parameters: ``dealt``, the cards as dealt,
    or ``hand``, those held now; ``played``, ``discarded``, and in bid and ghost ``trump``,
    the suit named)."""
    return table_state(request.query_params)


def _odds_work(request: Request):
    """``(label, work, deals)`` of the odds question a request asks, checked first (a bad
    question is refused at once, not after waiting for another's turn)."""
    from ..questions.odds.answer import ask, check_question

    limits = request.app.state.limits
    question = check_question(odds_request_of(request.query_params, limits))  # read once
    label = f"a {question.request.rules.variant} question"

    def work() -> dict:
        with limited(limits):
            return strict(ask(question).to_dict())
    return label, served(work), question.request.deals or 0


@router.get("/api/odds")
async def api_odds(request: Request):
    """The odds of every legal call, as ``euchre odds --json`` prints them for the same
    options (parameters: the options of ``euchre odds``, dashes as underscores; repeat
    ``given`` for several conditions). A client that goes away cancels its question."""
    label, work, total = await anyio.to_thread.run_sync(lambda: _odds_work(request))
    runner = request.app.state.runner
    job = await anyio.to_thread.run_sync(
        lambda: runner.start(label, work, watched=False, wait=QUEUE_SECONDS, total=total))
    return await _answer(request, job)


async def _answer(request: Request, job) -> JSONResponse:
    """The finished job's answer, waited for here; the job is cancelled when the client
    goes away first (it then stops at its next piece)."""
    while not job.finished.is_set():
        if await request.is_disconnected():
            job.stop.set()
        await anyio.to_thread.run_sync(job.finished.wait, POLL_SECONDS)
    return _finished(job)


@router.post("/api/jobs/odds", status_code=202)
def api_start_odds(request: Request) -> dict:
    """Start the question of ``/api/odds`` in the background: its status (poll
    ``/api/jobs/{id}``; a question nobody polls for 20 s is cancelled)."""
    label, work, total = _odds_work(request)
    return request.app.state.runner.start(label, work, total=total).status()


@router.get("/api/jobs")
def api_jobs(request: Request) -> dict:
    """The question running now, whoever asked it (``running``: its kind, progress and time,
    no cards), or null."""
    job = request.app.state.runner.running()
    return {"running": None if job is None else job.public()}


@router.delete("/api/jobs/running")
def api_cancel_running(request: Request):
    """Cancel the question running now, whoever asked it: it stops after its piece."""
    job = request.app.state.runner.cancel_running()
    return _error(404, "no question is running") if job is None else {"cancelled": job.public()}


@router.get("/api/jobs/{job_id}")
def api_job(job_id: str, request: Request):
    """A question's progress (deals done of total, seconds left) and its answer."""
    job = request.app.state.runner.get(job_id)
    return _error(404, f"no question {job_id[:16]}") if job is None else job.status()


@router.delete("/api/jobs/{job_id}")
def api_cancel(job_id: str, request: Request):
    """Cancel a question: it stops after the piece it is on, with the estimate so far."""
    job = request.app.state.runner.cancel(job_id)
    return _error(404, f"no question {job_id[:16]}") if job is None else job.status()


@router.get("/api/practice")
async def api_practice(request: Request):
    """A position to practise on (parameters: the variant and its house rules, ``seat``,
    ``seed`` and ``n``, the position's number, and ``decisions``: calls, play or all):
    ``decision`` (call, discard or card), ``hand`` (held then), ``dealer``, ``upcard``,
    ``auction`` (the calls heard) and in the play ``played``, ``discarded`` and ``trump``, of
    a decision the analyzer's engine dealt, bid and played to, chosen among a few for being
    close to call. The same parameters give the same position."""
    from .practice import practice_position

    params = request.query_params
    rules_of(params)  # a bad request is refused before it waits for a turn
    runner = request.app.state.runner
    job = await anyio.to_thread.run_sync(
        lambda: runner.start("a practice position", served(lambda: practice_position(params)),
                             watched=False, wait=QUEUE_SECONDS))
    return await _answer(request, job)


async def _json_body(request: Request):
    """The request's body read as JSON (null when empty); UserError when it is not JSON."""
    try:
        return json_loads(await request.body() or b"null")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"the body is not JSON: {e}") from None
    except RecursionError:
        raise UserError("the body is nested too deeply to be a record") from None


@router.post("/api/review")
async def api_review(request: Request):
    """Review a played hand: the body is ``{"record": ...}`` (a record as ``euchre play
    --json`` writes it, as an object or its text) with optional ``method`` (dd or pimc),
    ``worlds``, ``seed``, ``call_deals``, ``others``; the answer is what ``euchre review
    --json`` prints."""
    body = await _json_body(request)
    limits = request.app.state.limits
    label, work = review_work(body, limits)
    runner = request.app.state.runner
    job = await anyio.to_thread.run_sync(
        lambda: runner.start(label, served(work), watched=False, wait=QUEUE_SECONDS))
    return await _answer(request, job)


@router.post("/api/play")
async def api_play(request: Request):
    """Deal a hand (``"game": true``: a game's first hand) to play against the analyzer
    (docs/play.md): the body is ``{"variant", "seat", "seed"}`` with optional ``dealer``,
    ``game``, ``score`` and house rules; the answer is the hand's ``id`` and the table as the
    seat sees it, the bots' decisions before the player's first made, ``decision``: what the
    player decides and its ``options`` (a game's: ``game``, the score and the hand's
    number)."""
    from .play_store import new_hand

    hand = new_hand(await _json_body(request))  # a bad request is refused before its turn
    store = request.app.state.plays

    def work() -> dict:
        hand.start()
        return {"id": store.add(hand), **hand.table()}
    return await _queued(request, "a played hand", work)


@router.get("/api/play/{key}")
def api_play_table(key: str, request: Request) -> dict:
    """The table of hand ``key`` as its seat sees it now (404 when it expired)."""
    hand = request.app.state.plays.get(key)
    return {"id": key, **hand.table()}


@router.post("/api/play/{key}")
async def api_play_action(key: str, request: Request):
    """Make the pending decision of hand (or game) ``key``: the body is ``{"action":
    label}``, one of ``decision.options`` (in a game between hands, ``next hand``); the
    answer is the table after it (the bots' decisions up to the player's next one made) and
    ``grade``: the action's ``verdict``, ``cost``, ``best`` (None for ``next hand``)."""
    from .play_store import action_of

    action = action_of(await _json_body(request))
    hand = request.app.state.plays.get(key)
    hand.check(action)  # not one of the options: 422 at once

    def work() -> dict:
        made = hand.act(action)  # None: a game's next hand dealt
        grade = None if made is None else made.grade
        return {"id": key, **hand.table(), "grade": grade,
                "ungraded": made.ungraded if made is not None and grade is None else None}
    return await _queued(request, "a played hand's decision", work)


async def _queued(request: Request, label: str, work) -> JSONResponse:
    """``work``'s answer, run as the one question at a time (a request waits its turn for up
    to ``QUEUE_SECONDS``)."""
    runner = request.app.state.runner
    job = await anyio.to_thread.run_sync(
        lambda: runner.start(label, served(work), watched=False, wait=QUEUE_SECONDS))
    return await _answer(request, job)


def _finished(job) -> JSONResponse:
    if job.error is not None:
        return _error(500 if job.internal else 422, job.error)
    return JSONResponse(job.result)
