#!/usr/bin/env python3
"""Payment faults (run by Tools/faults): checkouts while the payment API answers 500, hangs,
closes the connection, or acts and loses its answer; then the API heals and `storefront reconcile`
runs. Checks: no order left pending, no order charged twice (at most one succeeded PaymentIntent
per order, none for an order that is not paid), stock = initial - paid units. Then checkouts
whose confirm hangs, reconciled while the API answers 401 to everything (a revoked key): every
order stays pending with its stock held, until the API heals and the same checks pass.

    Tools/drills/payment-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL PROXY_URL LOCALSTRIPE_URL RECONCILE_COMMAND
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, item, sql  # noqa: E402

base, admin, database, proxy, localstripe, reconcile = sys.argv[1:7]


def orders_of(drill_item):
    rows = [row.split("|") for row in sql(database, f"SELECT o.id, o.status, l.quantity FROM orders o JOIN order_lines l "
                                                    f"ON l.order_id = o.id WHERE l.item_id = '{drill_item}'").splitlines()]
    return rows, int(sql(database, f"SELECT sum(stock) FROM item_variants WHERE item_id = '{drill_item}'"))


def reconcile_now():
    # Every checkout has answered, so none is inside its deadline: age the orders past the
    # reconciler's minimum (twice the longest payment call + 30 s) instead of waiting it out.
    sql(database, "UPDATE orders SET created_at = created_at - interval '1 hour', updated_at = updated_at - interval '1 hour'")
    subprocess.run(reconcile, shell=True, check=True, capture_output=True)


for mode in ["500", "hang", "close", "lose", "401 during reconcile"]:
    stock = 20
    drill_item = item(base, admin, stock, price=700)
    tokens = [customer(base) for _ in range(6)]
    for token in tokens:
        call(f"{base}/v1/cart/items/{drill_item}", "PUT", {"quantity": 1}, token)
    revoked = mode == "401 during reconcile"
    call(f"{proxy}/__fault/{'hang:/confirm' if revoked else mode}", "PUT")
    started = time.monotonic()
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda t: call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, t,
                                               {"Idempotency-Key": uuid.uuid4().hex}, timeout=120).status, tokens))
    took = time.monotonic() - started
    if revoked:
        call(f"{proxy}/__fault/401", "PUT")
        reconcile_now()
        rows, left = orders_of(drill_item)
        expect(len(rows) == 6 and all(status == "pending_payment" for _, status, _ in rows) and left == stock - 6,
               f"{mode}: every order still pending, stock {left} still held ({dict(collections.Counter(s for _, s, _ in rows))})")
    call(f"{proxy}/__fault/ok", "PUT")
    reconcile_now()
    rows, left = orders_of(drill_item)
    orders = {order: status for order, status, _ in rows}
    paid_units = sum(int(quantity) for _, status, quantity in rows if status == "paid")
    listing = urllib.request.Request(f"{localstripe}/v1/payment_intents?limit=1000", headers={"Authorization": "Bearer sk_test"})
    intents = json.loads(urllib.request.urlopen(listing).read())["data"]
    succeeded = collections.Counter(i["metadata"].get("order_id") for i in intents if i["status"] == "succeeded")
    print(f"      payment API {mode}: checkouts answered {dict(collections.Counter(answers))} in {took:.1f} s; "
          f"after reconcile {dict(collections.Counter(orders.values()))}")
    expect("pending_payment" not in orders.values(), f"{mode}: no order left pending after reconcile")
    expect(all(succeeded[o] <= 1 for o in orders) and all(succeeded[o] == 0 for o, s in orders.items() if s != "paid"),
           f"{mode}: no order charged twice, none charged that is not paid")
    expect(left == stock - paid_units, f"{mode}: stock {left} = {stock} - {paid_units} paid units")
sys.exit(exit_status())
