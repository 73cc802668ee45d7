#!/usr/bin/env python3
"""Password guessing against a running service (Tools/serve, or any instance): wrong sign-ins for
one account until the per-account limit answers 429, then a burst of concurrent sign-ins that the
bound on password hashes and the per-address limit turn away fast while a cheap route keeps
answering. Checks: the limited answers are problem+json 429 with Retry-After, even the right
password is refused while the account is limited, reads stay quick during the burst.

    Tools/drills/signin-drill.py BASE_URL

Each run uses fresh accounts but spends this address's sign-in budget
(RATE_LIMIT_PASSWORD_PER_ADDRESS, default 100 per 600 s): run it at most once or twice in that time.
"""
import collections
import os
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, exit_status, expect  # noqa: E402

base = sys.argv[1]


def sign_in(email, password):
    return call(base + "/v1/sessions", "POST", {"email": email, "password": password})


def limited(answer):
    return (answer.status == 429 and answer.headers.get("Content-Type") == "application/problem+json"
            and int(answer.headers.get("Retry-After", "0")) >= 1)


# 1. One account, wrong passwords one after another.
email, password = f"drill-{uuid.uuid4().hex[:12]}@example.com", "drill password 1"
created = call(base + "/v1/customers", "POST", {"email": email, "password": password, "name": "Drill"})
if created.status != 201:
    print(f"sign-up answered {created.status} {created.body}: is this address limited already?")
    sys.exit(1)
answers = []
for attempt in range(1, 51):
    answers.append(sign_in(email, f"guess number {attempt}"))
    if answers[-1].status != 401:
        break
print("      wrong sign-ins: " + " ".join(str(a.status) for a in answers))
last = answers[-1]
expect(limited(last), f"the account is limited after {len(answers) - 1} wrong passwords: 429 problem+json, "
                      f"Retry-After {last.headers.get('Retry-After')} s")
expect(all(a.status == 401 for a in answers[:-1]), "every attempt before it was an ordinary 401")
expect(limited(sign_in(email, password)), "while limited, even the right password is refused (429)")

# 2. A burst of concurrent guesses at unknown accounts, with a reader on a cheap route meanwhile.
reads = []


def reader():
    for _ in range(30):
        reads.append(call(base + "/v1/items?limit=5"))


started = time.monotonic()
with ThreadPoolExecutor(33) as pool:
    reading = pool.submit(reader)
    burst = list(pool.map(lambda n: sign_in(f"nobody-{uuid.uuid4().hex[:8]}@example.com", "wrong guess 1"), range(32)))
    reading.result()
took = time.monotonic() - started
statuses = collections.Counter(a.status for a in burst)
refusals = [a for a in burst if a.status == 429]
print(f"      32 concurrent guesses in {took:.2f} s: {dict(statuses)}; slowest refusal "
      f"{max((a.seconds for a in refusals), default=0) * 1000:.0f} ms, slowest read {max(a.seconds for a in reads) * 1000:.0f} ms")
expect(set(statuses) <= {401, 429}, "every guess answered 401 or 429")
expect(refusals and all(limited(a) for a in refusals), "the guesses beyond the bound were refused with 429 + Retry-After")
expect(all(a.status == 200 for a in reads) and max(a.seconds for a in reads) < 1, "GET /v1/items kept answering within 1 s")
sys.exit(exit_status())
