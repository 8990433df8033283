// The in-browser verifier (docs/rules.md §7): checks an opening's JSON or a day's ledger
// with the browser's own SubtleCrypto and its own copy of the draw — Python's
// random.Random (MT19937, seeded from an integer) and engine.packs.draw_offer.
"use strict";

// --- Python's random.Random(int) -------------------------------------------------------

class PyRandom {
  constructor(seed) {
    this.mt = new Uint32Array(624);
    this.index = 625;
    let n = seed < 0n ? -seed : seed;
    const key = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (key.length === 0) {
      key.push(0);
    }
    this.initByArray(key);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) {
        j = 0;
      }
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  nextUint32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let kk = 0; kk < 624; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7fffffff);
        mt[kk] = mt[(kk + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  random() {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }
}

// --- engine.packs.draw_offer ---------------------------------------------------------

function drawOffer(candidates, k, rng, tiers, weights) {
  const groups = tiers.map(() => []);
  for (const [token, tier] of candidates) {
    const t = tiers.indexOf(tier);
    if (t < 0) {
      throw new Error("tier");
    }
    groups[t].push(token);
  }
  if (candidates.length === 0) {
    rng.random();
    return [];
  }
  const left = groups.map((g) => g.length);
  const taken = groups.map(() => []);
  const offer = [];
  for (let pick = 0; pick < Math.min(k, candidates.length); pick++) {
    let total = 0;
    left.forEach((n, i) => {
      if (n) {
        total += weights[i];
      }
    });
    const target = rng.random() * total;
    let reached = 0;
    let tier = -1;
    for (let i = 0; i < left.length; i++) {
      if (left[i]) {
        reached += weights[i];
        tier = i;
        if (target < reached) {
          break;
        }
      }
    }
    const n = left[tier];
    let index = Math.min(Math.floor(rng.random() * n), n - 1);
    const removed = taken[tier];
    for (const gone of removed) {
      if (gone <= index) {
        index += 1;
      } else {
        break;
      }
    }
    removed.push(index);
    removed.sort((x, y) => x - y);
    left[tier] = n - 1;
    offer.push(groups[tier][index]);
  }
  return offer;
}

// --- hashing ---------------------------------------------------------------------------

function canonical(value) {
  if (Array.isArray(value)) {
    return "[" + value.map(canonical).join(",") + "]";
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

const hex = (buffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(text.substr(i * 2, 2), 16);
  }
  return bytes;
}

const encoder = new TextEncoder();

async function sha256(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

async function entryHash(entry) {
  const copy = Object.assign({}, entry);
  delete copy.hash;
  return sha256(encoder.encode(canonical(copy)));
}

async function drawSeed(key, clientSeed, nonce) {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(clientSeed + ":" + nonce));
  let value = 0n;
  for (const byte of new Uint8Array(mac).slice(0, 8)) {
    value = (value << 8n) | BigInt(byte);
  }
  return value >> 1n;
}

const HEX64 = /^[0-9a-f]{64}$/;

// --- the check -------------------------------------------------------------------------

async function checkEntries(data, entries, versions, chained, tiers, weights) {
  const problems = [];
  let key = null;
  if (data.server_seed) {
    if (!HEX64.test(data.server_seed) || (await sha256(fromHex(data.server_seed))) !== data.commitment) {
      problems.push(["commitment", null]);
    } else {
      key = await crypto.subtle.importKey(
        "raw",
        fromHex(data.server_seed),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
    }
  }
  let prev = data.commitment;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const n = chained ? i + 1 : entry.n;
    if (chained && entry.prev !== prev) {
      problems.push(["prev", n]);
    }
    if ((await entryHash(entry)) !== entry.hash) {
      problems.push(["hash", n]);
    }
    prev = entry.hash;
    const candidates = versions[entry.odds_version];
    if (!Array.isArray(candidates)) {
      problems.push(["version", n]);
      continue;
    }
    if (key && Array.isArray(entry.picks)) {
      const seed = await drawSeed(key, String(entry.client_seed), n);
      const drawn = drawOffer(candidates, entry.picks.length, new PyRandom(seed), tiers, weights);
      if (JSON.stringify(drawn) !== JSON.stringify(entry.picks)) {
        problems.push(["picks", n]);
      }
    }
  }
  return { problems, revealed: Boolean(data.server_seed) };
}

async function check(text, box) {
  const msg = (name, n) => (box.dataset["msg" + name] || name).replace("%(n)s", n);
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, lines: [msg("BadJson")] };
  }
  const tiers = [];
  const weights = [];
  for (const part of box.dataset.weights.split(",")) {
    const [tier, weight] = part.split(":");
    tiers.push(tier);
    weights.push(Number(weight));
  }
  let result;
  let count;
  if (data && Array.isArray(data.entries) && data.versions) {
    result = await checkEntries(data, data.entries, data.versions, true, tiers, weights);
    count = data.entries.length;
  } else if (data && data.ledger && data.ledger.entry) {
    const place = data.ledger;
    const versions = { [place.odds_version]: place.candidates };
    result = await checkEntries(place, [place.entry], versions, false, tiers, weights);
    count = 1;
  } else {
    return { ok: false, lines: [msg("Shape")] };
  }
  const lines = result.problems.map(([code, n]) => msg(code[0].toUpperCase() + code.slice(1), n));
  const ok = lines.length === 0;
  const summary = [ok ? msg("Ok") : msg("Fail"), msg("Count", count)];
  if (!result.revealed) {
    summary.push(msg("Hidden"));
  }
  return { ok, lines: summary.concat(lines) };
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("verifier");
  if (!box) {
    return;
  }
  const input = document.getElementById("verify-input");
  const output = document.getElementById("verify-result");
  const show = (result) => {
    output.replaceChildren();
    output.className = result.ok ? "verified" : "notice notice-error";
    for (const line of result.lines) {
      const p = document.createElement("p");
      p.textContent = line;
      output.append(p);
    }
    output.dataset.state = result.ok ? "ok" : "fail";
  };
  document.getElementById("verify-run").addEventListener("click", async () => {
    if (!window.crypto || !window.crypto.subtle) {
      show({ ok: false, lines: [box.dataset.msgNocrypto] });
      return;
    }
    show(await check(input.value, box));
  });
  const load = document.getElementById("verify-load");
  if (load && box.dataset.source) {
    load.addEventListener("click", async () => {
      const response = await fetch(box.dataset.source, { credentials: "same-origin" });
      input.value = JSON.stringify(await response.json(), null, 1);
    });
  }
});
