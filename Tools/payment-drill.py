#!/usr/bin/env python3
"""Payment faults (run by Tools/faults): checkouts while the payment API answers 500, hangs,
closes the connection, or acts and loses its answer; then the API heals and `storefront reconcile`
runs. Checks: no order left pending, no order charged twice (at most one succeeded PaymentIntent
per order, none for an order that is not paid), stock = initial - paid units.

    Tools/payment-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL PROXY_URL LOCALSTRIPE_URL RECONCILE_COMMAND
"""
import collections
import json
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from drill import call, customer, exit_status, expect, item, sql  # noqa: E402

base, admin, database, proxy, localstripe, reconcile = sys.argv[1:7]

for mode in ["500", "hang", "close", "lose"]:
    stock = 20
    drill_item = item(base, admin, stock, price=700)
    tokens = [customer(base) for _ in range(6)]
    for token in tokens:
        call(f"{base}/v1/cart/items/{drill_item}", "PUT", {"quantity": 1}, token)
    call(f"{proxy}/__fault/{mode}", "PUT")
    started = time.monotonic()
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda t: call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, t,
                                               {"Idempotency-Key": uuid.uuid4().hex}, timeout=120).status, tokens))
    took = time.monotonic() - started
    call(f"{proxy}/__fault/ok", "PUT")
    subprocess.run(reconcile, shell=True, check=True, capture_output=True)
    rows = [row.split("|") for row in sql(database, f"SELECT o.id, o.status, l.quantity FROM orders o JOIN order_lines l "
                                                    f"ON l.order_id = o.id WHERE l.item_id = '{drill_item}'").splitlines()]
    orders = {order: status for order, status, _ in rows}
    paid_units = sum(int(quantity) for _, status, quantity in rows if status == "paid")
    left = int(sql(database, f"SELECT stock FROM items WHERE id = '{drill_item}'"))
    listing = urllib.request.Request(f"{localstripe}/v1/payment_intents?limit=1000", headers={"Authorization": "Bearer sk_test"})
    intents = json.loads(urllib.request.urlopen(listing).read())["data"]
    succeeded = collections.Counter(i["metadata"].get("order_id") for i in intents if i["status"] == "succeeded")
    print(f"      payment API {mode:5}: checkouts answered {dict(collections.Counter(answers))} in {took:.1f} s; "
          f"after reconcile {dict(collections.Counter(orders.values()))}")
    expect("pending_payment" not in orders.values(), f"{mode}: no order left pending after reconcile")
    expect(all(succeeded[o] <= 1 for o in orders) and all(succeeded[o] == 0 for o, s in orders.items() if s != "paid"),
           f"{mode}: no order charged twice, none charged that is not paid")
    expect(left == stock - paid_units, f"{mode}: stock {left} = {stock} - {paid_units} paid units")
sys.exit(exit_status())
