"""``euchre serve`` against other web pages and on a shared network, over raw HTTP to a real
server (as a browser, a rebinding page or a script would send it): a Host it does not
serve, writes and work from other origins, bodies a form could send, no CORS; a token when
it listens beyond this machine; and stopping on Ctrl-C or SIGTERM with a question in
flight."""

import http.client
import signal
import socket
import threading
import time
from urllib.parse import urlencode, urlsplit

import pytest

from tests.served import server, wait_for

pytestmark = pytest.mark.serve

QUESTION = "/api/odds?" + urlencode({"hand": "JS AS KS 9H TD", "variant": "knock",
                                     "upcard": "QS", "seat": "E", "dealer": "N",
                                     "deals": "500", "others": "points"})
JOB = QUESTION.replace("/api/odds", "/api/jobs/odds")


@pytest.fixture(scope="module")
def local():
    with server() as (url, proc, log):
        yield urlsplit(url)


def request(where, method: str, path: str, headers: dict | None = None, body=None):
    """``(status, headers, body text)`` of one raw request to ``where`` (a split URL); the
    Host header is ours to set."""
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    headers = {"Host": where.netloc, **(headers or {})}
    if body is not None:
        headers.setdefault("Content-Length", str(len(body)))
    for k, v in headers.items():
        conn.putheader(k, v)
    conn.endheaders(body)
    response = conn.getresponse()
    out = response.status, {k.lower(): v for k, v in response.getheaders()}, \
        response.read().decode()
    conn.close()
    return out


def test_the_server_answers_its_own_page_and_api(local):
    status, headers, body = request(local, "GET", QUESTION)
    assert status == 200 and '"best"' in body
    assert not any(k.startswith("access-control-") for k in headers)
    status, _, _ = request(local, "GET", "/", {"Host": f"localhost:{local.port}"})
    assert status == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example"])
def test_a_host_it_does_not_serve_is_refused(local, host):
    """DNS rebinding: a page at evil.example, its name resolving to 127.0.0.1, sends its own
    Host; it got full answers."""
    for path in (QUESTION, "/", "/api/spec"):
        status, _, body = request(local, "GET", path, {"Host": host})
        assert status == 403 and "error" in body and '"best"' not in body


@pytest.mark.parametrize("headers", [
    {"Origin": "http://127.0.0.1:1"},  # a page on another port of this machine
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site"},  # another port: same site, not same origin
    {"Sec-Fetch-Site": "cross-site"},
])
def test_a_write_from_another_origin_is_refused(local, headers):
    status, resp, body = request(local, "POST", JOB, headers)
    assert status == 403 and "another site" in body
    assert not any(k.startswith("access-control-") for k in resp)
    status, _, _ = request(local, "DELETE", "/api/jobs/running", headers)
    assert status == 403
    assert request(local, "GET", "/api/jobs")[2] == '{"running":null}'  # nothing started


def test_work_from_another_site_is_refused_but_a_link_to_the_page_opens(local):
    """An <img src> on another site would start a question with a GET; a shared link is a
    top-level navigation to the page, which opens."""
    status, _, _ = request(local, "GET", QUESTION, {"Sec-Fetch-Site": "cross-site",
                                                    "Sec-Fetch-Mode": "no-cors"})
    assert status == 403
    status, _, _ = request(local, "GET", "/?variant=knock&ask=1",
                           {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    assert status == 200
    status, _, _ = request(local, "POST", JOB, {"Origin": f"http://{local.netloc}",
                                                "Sec-Fetch-Site": "same-origin"})
    assert status == 202
    request(local, "DELETE", "/api/jobs/running")
    wait_for(lambda: request(local, "GET", "/api/jobs")[2] == '{"running":null}', 60,
             "the cancelled question's end")  # the next tests count on no job running


def test_a_foreign_origin_or_referer_is_refused_wherever_it_appears(local):
    """Issue 51: a GET with a foreign Origin but no Sec-Fetch-Site was answered 200, and a
    POST with only a foreign Referer got 202 (a browser that sends no Sec-Fetch-Site, or a
    script). A foreign Origin is refused on every request, a foreign Referer on the API and
    on writes; a link from another site to the page itself still opens."""
    own = f"http://{local.netloc}"
    for method, path in (("GET", QUESTION), ("GET", "/api/spec"), ("GET", "/"),
                         ("POST", JOB), ("DELETE", "/api/jobs/running")):
        for headers in ({"Origin": "http://evil.example"},
                        {"Origin": "http://127.0.0.1:1"}):
            status, _, body = request(local, method, path, headers)
            assert status == 403 and "another" in body, (method, path, headers, status)
    for method, path in (("GET", QUESTION), ("GET", "/api/spec"), ("POST", JOB),
                         ("DELETE", "/api/jobs/running")):
        for referer in ("http://evil.example/page", "http://127.0.0.1:1/", "null"):
            status, _, body = request(local, method, path, {"Referer": referer})
            assert status == 403 and "another" in body, (method, path, referer, status)
    assert request(local, "GET", "/api/jobs")[2] == '{"running":null}'  # nothing started
    status, _, _ = request(local, "GET", "/?variant=knock", {"Referer": "http://mail.example/"})
    assert status == 200  # a shared link followed from another site
    assert request(local, "GET", "/api/spec", {"Origin": own, "Referer": own + "/?x=1"})[0] == 200
    status, _, _ = request(local, "POST", JOB, {"Origin": own, "Referer": own + "/"})
    assert status == 202
    request(local, "DELETE", "/api/jobs/running")
    wait_for(lambda: request(local, "GET", "/api/jobs")[2] == '{"running":null}', 60,
             "the cancelled question's end")  # the next tests count on no job running


def test_a_body_a_form_could_send_is_refused(local):
    """A cross-origin form or fetch can send text/plain with no preflight: the review took
    it."""
    status, _, body = request(local, "POST", "/api/review", {"Content-Type": "text/plain"},
                              b'{"record": {}}')
    assert status == 415 and "JSON" in body


def test_a_chunked_body_over_the_limit_is_413(local):
    conn = socket.create_connection((local.hostname, local.port), timeout=60)
    conn.sendall(f"POST /api/review HTTP/1.1\r\nHost: {local.netloc}\r\nContent-Type: "
                 f"application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b"x" * 65536
    try:
        for _ in range(160):  # 10 MB in chunks; the server answers before the end
            conn.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
    except OSError:
        pass  # it closed the connection after answering
    reply = conn.recv(4096).decode(errors="replace")
    conn.close()
    assert reply.startswith("HTTP/1.1 413"), reply[:200]


def test_listening_beyond_this_machine_needs_the_token_it_prints():
    """--host 0.0.0.0: a warning and a token in the printed address; a request without it
    is refused, with it answered (and a cookie set for the next ones)."""
    with server("--host", "0.0.0.0") as (url, proc, log):
        where = urlsplit(url)
        token = url.split("token=")[1]
        assert len(token) >= 20 and "warning: listening on 0.0.0.0" in log.read_text()
        status, _, body = request(where, "GET", "/api/spec")
        assert status == 403 and "token" in body
        status, headers, _ = request(where, "GET", f"/?token={token}")
        assert status == 200 and "euchre_token=" in headers["set-cookie"]
        assert "HttpOnly" in headers["set-cookie"]
        cookie = headers["set-cookie"].split(";")[0]
        assert request(where, "GET", "/api/spec", {"Cookie": cookie})[0] == 200
        assert request(where, "GET", "/api/spec", {"Authorization": f"token {token}"})[0] == 200
        assert request(where, "GET", "/api/spec", {"Cookie": "euchre_token=guess"})[0] == 403


@pytest.mark.parametrize("sig, question", [
    (signal.SIGINT, {"variant": "bid", "hand": "JH JD AH KH QH 9S", "deals": "200000"}),
    (signal.SIGTERM, {"variant": "knock", "hand": "JS AS KS 9H TD", "upcard": "QS",
                      "seat": "E", "dealer": "N", "method": "pimc", "worlds": "1000",
                      "deals": "2000"}),
])
def test_a_signal_stops_the_server_in_seconds_with_a_question_in_flight(sig, question):
    """Ctrl-C waited for the whole question (26 s); with a PIMC question the first did
    nothing for 90 s and the second printed tracebacks. Now running questions stop at their
    next piece, the waiting request gets the estimate so far, and the server exits 0."""
    with server(log_name=f"signal-{sig}.log") as (url, proc, log):
        where = urlsplit(url)
        got = {}

        def ask():
            got["reply"] = request(where, "GET", "/api/odds?" + urlencode(question))

        asking = threading.Thread(target=ask)
        asking.start()
        wait_for(lambda: '"running":{' in request(where, "GET", "/api/jobs")[2], 60,
                 "the question")
        time.sleep(1.0)  # under way
        proc.send_signal(sig)
        stopped = time.monotonic()
        assert proc.wait(timeout=30) == 0
        took = time.monotonic() - stopped
        asking.join(30)
        text = log.read_text()
        assert took < 10, f"stopped after {took:.1f} s"
        assert "Traceback" not in text and text.rstrip().endswith("stopped"), text[-500:]
        status, _, body = got["reply"]
        assert status == 200 and '"interrupted":true' in body
