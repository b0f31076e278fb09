// The table socket's reconnect pause (src/xeri/web/js/net/socket.js, issue 25): it doubles from RETRY_FIRST_MS up to
// RETRY_MAX_MS, and each pause is drawn between half its ceiling and all of it. Exact, with a stand-in for
// Math.random, where the browser test (tests/web/test_web_reconnect.py) can only see lower bounds under load.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RETRY_FIRST_MS, RETRY_MAX_MS, retryDelay } from "../../../src/xeri/web/js/net/socket.js";

test("the pause's ceiling doubles from the first pause up to the longest", () => {
  const ceilings = [0, 1, 2, 3, 4, 5, 6, 7, 40].map((n) => retryDelay(n, () => 1));
  assert.deepEqual(ceilings, [300, 600, 1200, 2400, 4800, 9600, 10000, 10000, 10000]);
  assert.equal(ceilings[0], RETRY_FIRST_MS);
  assert.equal(ceilings.at(-1), RETRY_MAX_MS);
});

test("each pause is drawn between half its ceiling and all of it", () => {
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const ceiling = retryDelay(attempt, () => 1);
    assert.equal(retryDelay(attempt, () => 0), ceiling / 2);
    assert.equal(retryDelay(attempt, () => 0.5), Math.round(ceiling * 0.75));
  }
});

test("below the longest, a later pause is never shorter than an earlier one, whatever is drawn", () => {
  for (let attempt = 0; retryDelay(attempt + 1, () => 1) < RETRY_MAX_MS; attempt += 1) {
    assert.ok(retryDelay(attempt + 1, () => 0) >= retryDelay(attempt, () => 1), `try ${attempt}`);
  }
});
