#!/usr/bin/env python3
"""The concurrency checks of Commerce through nginx over two instances (run by Tools/cluster
--check): 50 customers racing for 10 units, one idempotency key sent 5 times at once, 3-D Secure
checkouts settled by the provider's webhooks spread over both instances (when the payment API is
our localstripe), racing shipments of one order and racing default addresses of one customer,
then steady reads and cart writes while one instance is stopped. Prints the
figures; exits 1 on a failure.

    Tools/drills/cluster-check.py BASE_URL ADMIN_TOKEN PID_OF_INSTANCE_A DATABASE_URL [PAYMENT_API_URL WEBHOOK_LOG]
"""
import collections
import os
import signal
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, item, sql, stripe, three_d_secure_card  # noqa: E402

base, admin, instance_a, database = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
payment_api = sys.argv[5] if len(sys.argv) > 5 else ""
webhook_log = sys.argv[6] if len(sys.argv) > 6 else ""



def checkout(token, key=None):
    return call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, token,
                {"Idempotency-Key": key or uuid.uuid4().hex})


# 1. Fifty customers race for ten units, their requests spread over both instances.
hot = item(base, admin, 10)
with ThreadPoolExecutor(8) as pool:
    tokens = list(pool.map(lambda _: customer(base), range(50)))
with ThreadPoolExecutor(16) as pool:
    carts = list(pool.map(lambda t: call(f"{base}/v1/cart/items/{hot}", "PUT", {"quantity": 1}, t).status, tokens))
expect(carts.count(200) == 50, f"50 carts filled through nginx ({collections.Counter(carts)})")
barrier = threading.Barrier(50)


def racer(token):
    barrier.wait()
    return checkout(token)


started = time.monotonic()
with ThreadPoolExecutor(50) as pool:
    results = list(pool.map(racer, tokens))
elapsed = time.monotonic() - started
statuses = collections.Counter(answer.status for answer in results)
upstreams = collections.Counter(answer.headers.get("X-Upstream") for answer in results)
print(f"      50 checkouts in {elapsed:.2f} s: {dict(statuses)}, served by {dict(upstreams)}")
# A winner is paid (201), or pending (202) when the single-threaded fake provider did not answer
# its call at once (the reconciler settles it); the losers are refused for stock.
expect(statuses[201] + statuses[202] == 10 and statuses[409] == 40,
       "exactly 10 won (201 paid, or 202 pending at the provider) and 40 refused for stock (409)")
expect(len([u for u in upstreams if u]) == 2, "both instances served checkouts")
stock = call(f"{base}/v1/items/{hot}").body["stock"]
held = int(sql(database, f"SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id "
                         f"WHERE l.item_id = '{hot}' AND o.status IN ('paid', 'pending_payment')"))
expect(stock == 0 and held == 10, f"stock {stock}, units in paid or pending orders {held}: no oversell")

# 2. One idempotency key sent five times at once, over both instances: one order.
calm = item(base, admin, 5)
token = customer(base)
call(f"{base}/v1/cart/items/{calm}", "PUT", {"quantity": 1}, token)
key = uuid.uuid4().hex
barrier = threading.Barrier(5)


def replay(_):
    barrier.wait()
    return checkout(token, key)


with ThreadPoolExecutor(5) as pool:
    replays = list(pool.map(replay, range(5)))
orders = int(sql(database, f"SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.item_id = '{calm}'"))
print(f"      same key x5: {dict(collections.Counter(a.status for a in replays))}, served by "
      f"{dict(collections.Counter(a.headers.get('X-Upstream') for a in replays))}")
expect(orders == 1, f"one order for one key ({orders} in the database)")

# 3. 3-D Secure checkouts settled by localstripe's webhooks, which nginx spreads over both instances.
if payment_api:
    count = 8
    stocked = item(base, admin, 100)

    def three_d_secure(_):
        token = customer(base)
        call(f"{base}/v1/cart/items/{stocked}", "PUT", {"quantity": 1}, token)
        method = three_d_secure_card(payment_api, "sk_test_cluster")
        answer = call(base + "/v1/orders", "POST", {"payment_method": method}, token, {"Idempotency-Key": uuid.uuid4().hex})
        return answer

    with ThreadPoolExecutor(4) as pool:
        placed = list(pool.map(three_d_secure, range(count)))
    expect(all(a.status == 202 and a.body["status"] == "requires_action" for a in placed),
           f"{count} checkouts wait on 3-D Secure ({collections.Counter(a.status for a in placed)})")
    for answer in placed:
        stripe(payment_api, "sk_test_cluster", f"/v1/payment_intents/{answer.body['payment_intent_id']}/_authenticate",
                 {"client_secret": answer.body["payment"]["client_secret"], "success": "true"})
    ids = ",".join(f"'{a.body['id']}'" for a in placed)
    waited = 0.0
    while waited < 20 and int(sql(database, f"SELECT count(*) FROM orders WHERE id IN ({ids}) AND status = 'paid'")) < count:
        time.sleep(0.5)
        waited += 0.5
    paid = int(sql(database, f"SELECT count(*) FROM orders WHERE id IN ({ids}) AND status = 'paid'"))
    intents = ",".join(f"'{a.body['payment_intent_id']}'" for a in placed)
    events = int(sql(database, f"SELECT count(*) FROM payment_events WHERE payment_intent_id IN ({intents})"))
    upstreams = collections.Counter(line.split()[1] for line in open(webhook_log) if len(line.split()) > 1) if webhook_log else {}
    print(f"      3-D Secure: {paid} of {count} paid {waited:.1f} s after authenticating, no refresh; "
          f"{events} events recorded; webhooks served by {dict(upstreams)}")
    expect(paid == count, "every authenticated payment settled by its webhook")
    expect(len(upstreams) == 2, "webhooks reached both instances")

# 4. Fulfilment and the address book, raced over both instances: eight whole-order shipments of
# one paid order ship it once; eight new default addresses of one customer leave one default.
shipped = item(base, admin, 5)
token = customer(base)
call(f"{base}/v1/cart/items/{shipped}", "PUT", {"quantity": 2}, token)
order = checkout(token)
for _ in range(10):
    if order.body.get("status") == "paid":
        break
    time.sleep(0.5)
    order = call(f"{base}/v1/orders/{order.body['id']}/payment/refresh", "POST", None, token)
expect(order.body.get("status") == "paid", f"an order to ship, paid ({order.body.get('status')})")
barrier = threading.Barrier(8)


def ship(_):
    barrier.wait()
    return call(f"{base}/v1/admin/orders/{order.body['id']}/shipments", "POST",
                {"carrier": "Yamato", "tracking_number": uuid.uuid4().hex[:12]}, admin)


with ThreadPoolExecutor(8) as pool:
    shipments = collections.Counter(answer.status for answer in pool.map(ship, range(8)))
units = int(sql(database, f"SELECT sum(shipped_quantity) FROM order_lines WHERE order_id = '{order.body['id']}'"))
expect(shipments[201] == 1 and shipments[409] == 7 and units == 2,
       f"one of 8 racing shipments won, the rest 409 ({dict(shipments)}), 2 units shipped once ({units})")
barrier = threading.Barrier(8)
address = {"recipient": "Drill", "phone": "03-1234-5678", "postal_code": "100-0001", "country": "JP", "region": "JP-13",
           "city": "Chiyoda", "line1": "1-1", "is_default": True}


def add_address(_):
    barrier.wait()
    return call(base + "/v1/addresses", "POST", address, token).status


with ThreadPoolExecutor(8) as pool:
    added = collections.Counter(pool.map(add_address, range(8)))
me = call(base + "/v1/me", token=token).body["id"]
defaults = sql(database, f"SELECT count(*) FROM addresses WHERE customer_id = '{me}' AND is_default")
expect(added[201] == 8 and defaults == "1", f"8 racing default addresses made ({dict(added)}), one default ({defaults})")

# 5. Steady reads and cart writes while instance A stops: only what it had in flight may fail.
stop = threading.Event()
outcomes = collections.Counter()
lock = threading.Lock()


def load(n):
    while not stop.is_set():
        if n % 2:
            answer = call(base + "/v1/items?limit=5")
        else:
            answer = call(f"{base}/v1/cart/items/{calm}", "PUT", {"quantity": 1}, tokens[n])
        with lock:
            outcomes[(answer.status, answer.headers.get("X-Upstream"))] += 1


with ThreadPoolExecutor(8) as pool:
    for n in range(8):
        pool.submit(load, n)
    time.sleep(1.5)
    os.kill(instance_a, signal.SIGTERM)
    time.sleep(3)
    stop.set()
total = sum(outcomes.values())
failed = collections.Counter({status: count for (status, _), count in outcomes.items() if not 200 <= status < 300})
by_upstream = collections.Counter()
for (_, upstream), count in outcomes.items():
    by_upstream[upstream] += count
print(f"      {total} requests while instance A stopped: {sum(failed.values())} failed {dict(failed)}; "
      f"by upstream {dict(by_upstream)}")
expect(sum(failed.values()) <= 8, f"at most the 8 requests in flight at the stop failed ({sum(failed.values())} did)")
sys.exit(exit_status())
