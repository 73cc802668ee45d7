#!/usr/bin/env python3
"""The push part of Tools/faults: an instance killed (SIGKILL) while its worker waits on APNs
for a batch of pushes, another instance started. Two customers with 10 phones each pay an order
each: 20 pushes. The fake APNs (Tools/drills/fake-apns.py) holds its answers until the kill, so
the first 8 are in flight when the instance dies. The new instance sends the other 12 at once
and the 8 only once the dead worker's lease (60 s) is over; every phone gets its push, a phone
gets it twice only if it was in flight at the kill, and then under the same collapse id.

    Tools/drills/push-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL LOG HOLD SERVER_PID RESTART_COMMAND
"""
import collections
import json
import os
import signal
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, item, sql  # noqa: E402

base, admin, database, log, hold, server_pid, restart = sys.argv[1:8]
LEASE = 60


def received():
    if not os.path.exists(log):
        return []
    with open(log) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def wait_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


goods = item(base, admin, 100, price=700)
phones, registered = [], []
for n in range(2):
    token = customer(base)
    for _ in range(10):
        phones.append(uuid.uuid4().hex + uuid.uuid4().hex)
        registered.append(call(f"{base}/v1/me/devices/{phones[-1]}", "PUT", {"platform": "ios", "locale": "ja-JP"}, token).status)
    call(f"{base}/v1/cart/items/{goods}", "PUT", {"quantity": 1}, token)
    paid = call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, token, {"Idempotency-Key": uuid.uuid4().hex})
    expect(paid.status == 201, f"customer {n}: order paid ({paid.status})")
expect(registered == [201] * 20, f"20 phones registered ({collections.Counter(registered)})")

expect(wait_until(lambda: len(received()) >= 8, 30), "the worker's first 8 pushes reached APNs, which holds its answers")
time.sleep(1)
in_flight = {push["token"] for push in received()}
expect(len(in_flight) == 8, f"8 pushes in flight at the kill ({len(in_flight)})")
os.kill(int(server_pid), signal.SIGKILL)
killed = time.time()
os.remove(hold)
subprocess.run(["bash", "-c", restart], check=True)

expect(wait_until(lambda: len({p["token"] for p in received()}) == 20, 20),
       "the new instance sent the 12 no one held at once")
early = [p for p in received() if p["token"] in in_flight and p["at"] > killed]
expect(not early, f"none of the 8 the dead worker held sent again before its lease ended ({len(early)})")
expect(wait_until(lambda: sql(database, "SELECT count(*) FROM push_notifications WHERE sent_at IS NULL") == "0", LEASE + 40),
       "after the lease, the 8 sent too: no push left unsent")
by_phone = collections.defaultdict(list)
for push in received():
    by_phone[push["token"]].append(push)
expect(set(by_phone) == set(phones), "every phone got its push")
expect(all(len(pushes) == (2 if phone in in_flight else 1) for phone, pushes in by_phone.items()),
       "a phone got it twice only if it was in flight at the kill")
expect(all(len({p["collapse_id"] for p in pushes}) == 1 for pushes in by_phone.values()),
       "and then under the one collapse id, so the phone shows it once")
resent = [p["at"] - killed for p in received() if p["token"] in in_flight and p["at"] > killed]
expect(all(seconds >= LEASE - 15 for seconds in resent), f"resent after the lease ({min(resent, default=0):.0f} s after the kill)")
sys.exit(exit_status())
