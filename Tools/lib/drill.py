"""What the drill and load scripts (Tools/drills/*-drill.py, Tools/drills/cluster-check.py,
Benchmarks/checkout-load.py) share: JSON calls to the service, checks that print as they go,
psql queries, and signed-in customers."""
import json
import random
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field


@dataclass
class Answer:
    status: int  # 0 when no HTTP answer came (refused, reset, timed out)
    body: object = None
    headers: dict = field(default_factory=dict)
    seconds: float = 0.0


def call(url, method="GET", body=None, token=None, headers=None, timeout=60):
    """One JSON request to `url`; never raises for an HTTP status or a dropped connection."""
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
            return Answer(response.status, json.loads(data) if data else None, dict(response.headers), time.monotonic() - started)
    except urllib.error.HTTPError as error:
        data = error.read()
        return Answer(error.code, json.loads(data) if data else None, dict(error.headers), time.monotonic() - started)
    except Exception as error:  # the service itself failed to answer
        return Answer(0, {"error": str(error)}, {}, time.monotonic() - started)


failures = []


def expect(condition, message):
    """Prints the check; remembers a failure for `exit_status()`."""
    print(("ok    " if condition else "FAIL  ") + message, flush=True)
    if not condition:
        failures.append(message)


def exit_status():
    return 1 if failures else 0


def sql(database, query):
    return subprocess.run(["psql", database, "-qtAc", query], capture_output=True, text=True, check=True).stdout.strip()


def patiently(request, seconds=120):
    """`request()` again after the `Retry-After` (plus a little jitter, so callers do not retry in
    lockstep) of each 429 - the service bounds the password hashes it computes at once - for up to
    `seconds`; the last answer."""
    deadline = time.monotonic() + seconds
    while True:
        answer = request()
        if answer.status != 429 or time.monotonic() > deadline:
            return answer
        time.sleep(min(5.0, float(answer.headers.get("Retry-After", "1"))) + random.uniform(0, 0.5))


def customer(base, password="drill password 1"):
    """A new customer's session token."""
    email = f"drill-{uuid.uuid4().hex[:12]}@example.com"
    patiently(lambda: call(base + "/v1/customers", "POST", {"email": email, "password": password, "name": "Drill"}))
    return patiently(lambda: call(base + "/v1/sessions", "POST", {"email": email, "password": password})).body["token"]


def item(base, admin, stock, price=980, sku=None):
    """A new item's id (through the admin API)."""
    answer = call(base + "/v1/admin/items", "POST", {"sku": sku or "DRILL-" + uuid.uuid4().hex[:8], "name": "Drill item",
                                                      "category": "drill", "price": {"amount": price, "currency": "JPY"},
                                                      "stock": stock}, admin)
    assert answer.status == 201, (answer.status, answer.body)
    return answer.body["id"]


def stripe(api, key, path, form):
    """A form POST to the Stripe-compatible payment API (localstripe), its JSON answer ({} when
    it answers none)."""
    request = urllib.request.Request(api + path, data=urllib.parse.urlencode(form).encode(), method="POST")
    request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def three_d_secure_card(api, key):
    """A payment method whose card needs 3-D Secure (localstripe's 4000000000003220)."""
    return stripe(api, key, "/v1/payment_methods", {"type": "card", "card[number]": "4000000000003220", "card[exp_month]": "12",
                                                    "card[exp_year]": "2034", "card[cvc]": "123"})["id"]
