#!/usr/bin/env python3
"""The provider's webhooks under faults, against a running instance (Tools/faults starts one with
PAYMENT_WEBHOOK_SECRET and PAYMENT_ACTION_TIMEOUT_SECONDS=10, localstripe registering no webhook,
so this drill plays the provider's deliveries itself):

- forged, tampered and stale deliveries: 400, nothing recorded, nothing changed;
- the events of a 3-D Secure payment delivered out of order, each three times at once: the order
  is paid once, each event recorded once, the stock taken once;
- a failed authentication's event: the order fails, the stock comes back;
- every delivery lost (localstripe never retries; Stripe gives up after three days): the order
  waits until its 3-D Secure deadline, then the reconciler finds the payment succeeded and marks
  it paid.

Usage: webhook-drill.py BASE_URL DATABASE_URL LOCALSTRIPE_URL SECRET RECONCILE_COMMAND"""
import hashlib
import hmac
import json
import os
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, sql, stripe, three_d_secure_card  # noqa: E402

base, database, api, secret, reconcile = sys.argv[1:6]


def provider(path, form):
    return stripe(api, "sk_test_faults", path, form)


def deliver(event, signed_at=None, key=None, tamper=False):
    """POSTs `event` as the provider would, signed with `key` (default: the endpoint's secret)."""
    body = json.dumps(event).encode()
    t = int(signed_at if signed_at is not None else time.time())
    signature = hmac.new((key or secret).encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(base + "/v1/payments/webhook", data=body + (b" " if tamper else b""), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Stripe-Signature", f"t={t},v1={signature}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def event(kind, intent):
    return {"id": "evt_" + uuid.uuid4().hex, "type": kind, "data": {"object": {"id": intent, "object": "payment_intent"}}}


def three_d_secure_order(stock_item):
    token = customer(base)
    call(f"{base}/v1/cart/items/{stock_item}", "PUT", {"quantity": 1}, token)
    method = three_d_secure_card(api, "sk_test_faults")
    answer = call(base + "/v1/orders", "POST", {"payment_method": method}, token, {"Idempotency-Key": uuid.uuid4().hex})
    assert answer.status == 202 and answer.body["status"] == "requires_action", (answer.status, answer.body)
    return answer.body


def status(order):
    return sql(database, f"SELECT status FROM orders WHERE id = '{order['id']}'")


def stock(item):
    return int(sql(database, f"SELECT sum(stock) FROM item_variants WHERE item_id = '{item}'"))


def wait_for(order, wanted, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end and status(order) != wanted:
        time.sleep(0.2)
    return status(order)


item = call(base + "/v1/items?limit=1").body["data"][0]["id"]
sql(database, f"UPDATE item_variants SET stock = 50 WHERE item_id = '{item}'")

print("forged, tampered and stale deliveries")
order = three_d_secure_order(item)
before = int(sql(database, "SELECT count(*) FROM payment_events"))
forged = [
    deliver(event("payment_intent.succeeded", order["payment_intent_id"]), key="whsec_attacker_guess_000000"),
    deliver(event("payment_intent.succeeded", order["payment_intent_id"]), tamper=True),
    deliver(event("payment_intent.succeeded", order["payment_intent_id"]), signed_at=time.time() - 600),
]
expect(forged == [400, 400, 400], f"forged, tampered, stale: {forged}")
expect(int(sql(database, "SELECT count(*) FROM payment_events")) == before and status(order) == "requires_action",
       "nothing recorded, the order still waits on the customer")

print("a 3-D Secure payment's events out of order, each three times at once")
provider(f"/v1/payment_intents/{order['payment_intent_id']}/_authenticate",
         {"client_secret": order["payment"]["client_secret"], "success": "true"})
events = [event("payment_intent.succeeded", order["payment_intent_id"]), event("payment_intent.requires_action", order["payment_intent_id"])]
with ThreadPoolExecutor(6) as pool:
    answers = list(pool.map(lambda e: deliver(e), [e for e in events for _ in range(3)]))
expect(answers.count(200) == 6, f"every delivery acknowledged ({answers})")
expect(wait_for(order, "paid") == "paid", "the order is paid")
recorded = int(sql(database, f"SELECT count(*) FROM payment_events WHERE id IN ('{events[0]['id']}', '{events[1]['id']}')"))
expect(recorded == 2, f"each event recorded once ({recorded})")
expect(stock(item) == 49, f"the stock taken once ({stock(item)} of 50)")

print("a failed authentication's event")
failed = three_d_secure_order(item)
provider(f"/v1/payment_intents/{failed['payment_intent_id']}/_authenticate",
         {"client_secret": failed["payment"]["client_secret"], "success": "false"})
deliver(event("payment_intent.payment_failed", failed["payment_intent_id"]))
expect(wait_for(failed, "payment_failed") == "payment_failed", "the order fails")
expect(stock(item) == 49, f"its stock came back ({stock(item)} of 50)")

print("every delivery lost: the reconciler settles it at the 3-D Secure deadline")
lost = three_d_secure_order(item)
provider(f"/v1/payment_intents/{lost['payment_intent_id']}/_authenticate",
         {"client_secret": lost["payment"]["client_secret"], "success": "true"})
time.sleep(1)
expect(status(lost) == "requires_action", "no webhook, no refresh: the order still waits")
sql(database, f"UPDATE orders SET action_expires_at = now() - interval '1 second' WHERE id = '{lost['id']}'")
subprocess.run(shlex.split(reconcile), check=True, capture_output=True)
expect(status(lost) == "paid", f"the reconciler found the payment succeeded ({status(lost)})")
expect(stock(item) == 48, f"the stock taken once ({stock(item)} of 50)")
sys.exit(exit_status())
