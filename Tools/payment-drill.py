#!/usr/bin/env python3
"""Payment faults (run by Tools/faults): checkouts while the payment API answers 500, hangs,
closes the connection, or acts and loses its answer; then the API heals and `storefront reconcile`
runs. Checks: no order left pending, no order charged twice (at most one succeeded PaymentIntent
per order, none for an order that is not paid), stock = initial - paid units.

    Tools/payment-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL PROXY_URL LOCALSTRIPE_URL RECONCILE_COMMAND
"""
import collections
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

base, admin, database, proxy, localstripe, reconcile = sys.argv[1:7]
failures = []


def call(method, url, body=None, token=None, headers=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def sql(query):
    return subprocess.run(["psql", database, "-qtAc", query], capture_output=True, text=True, check=True).stdout.strip()


def expect(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def customer():
    email = f"pay-{uuid.uuid4().hex[:10]}@example.com"
    call("POST", base + "/v1/customers", {"email": email, "password": "payment drill 1", "name": "P"})
    return call("POST", base + "/v1/sessions", {"email": email, "password": "payment drill 1"})[1]["token"]


for mode in ["500", "hang", "close", "lose"]:
    stock = 20
    _, item = call("POST", base + "/v1/admin/items", {"sku": f"PAY-{mode}", "name": "Drill", "category": "drill",
                                                     "price": {"amount": 700, "currency": "JPY"}, "stock": stock}, admin)
    tokens = [customer() for _ in range(6)]
    for token in tokens:
        call("PUT", f"{base}/v1/cart/items/{item['id']}", {"quantity": 1}, token)
    call("PUT", f"{proxy}/__fault/{mode}")
    started = time.monotonic()
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda t: call("POST", base + "/v1/orders", {"payment_method": "pm_card_visa"}, t,
                                               {"Idempotency-Key": uuid.uuid4().hex})[0], tokens))
    took = time.monotonic() - started
    call("PUT", f"{proxy}/__fault/ok")
    subprocess.run(reconcile, shell=True, check=True, capture_output=True)
    rows = sql(f"SELECT o.id, o.status, l.quantity FROM orders o JOIN order_lines l ON l.order_id = o.id "
               f"WHERE l.item_id = '{item['id']}'").splitlines()
    orders = {row.split("|")[0]: row.split("|")[1] for row in rows}
    paid_units = sum(int(row.split("|")[2]) for row in rows if row.split("|")[1] == "paid")
    left = int(sql(f"SELECT stock FROM items WHERE id = '{item['id']}'"))
    intents = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{localstripe}/v1/payment_intents?limit=1000", headers={"Authorization": "Bearer sk_test_drill"})).read())["data"]
    succeeded = collections.Counter(i["metadata"].get("order_id") for i in intents if i["status"] == "succeeded")
    print(f"      payment API {mode:5}: checkouts answered {dict(collections.Counter(answers))} in {took:.1f} s; "
          f"after reconcile {dict(collections.Counter(orders.values()))}")
    expect("pending_payment" not in orders.values(), f"{mode}: no order left pending after reconcile")
    expect(all(succeeded[o] <= 1 for o in orders) and all(succeeded[o] == 0 for o, s in orders.items() if s != "paid"),
           f"{mode}: no order charged twice, none charged that is not paid")
    expect(left == stock - paid_units, f"{mode}: stock {left} = {stock} - {paid_units} paid units")
sys.exit(1 if failures else 0)
