/**
 * A port of CPython's `random.Random` (MT19937 seeded through `init_by_array`), so that few-shot draws
 * pick the same documents lm-eval picks with `random.Random(seed)`. No npm package reproduces CPython's
 * seeding and its `sample`/`choices` algorithms bit for bit, hence this file.
 */
const N = 624;
const M = 397;

export class PythonRandom {
  private readonly state = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number | bigint = 0) {
    this.seed(seed);
  }

  seed(seed: number | bigint): void {
    let value = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed));
    if (value < 0n) value = -value;
    const key: number[] = [];
    while (value > 0n) {
      key.push(Number(value & 0xffffffffn));
      value >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.state;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.state;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** One 32-bit output of the generator (CPython's `genrand_uint32`). */
  nextUint32(): number {
    const mt = this.state;
    if (this.index >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      const y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }

  /** `random.getrandbits(k)` for k ≤ 53, returned as a number. */
  getrandbits(k: number): number {
    if (k <= 0) return 0;
    if (k <= 32) return this.nextUint32() >>> (32 - k);
    let result = 0;
    let scale = 1;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.nextUint32();
      if (remaining < 32) word >>>= 32 - remaining;
      result += word * scale;
      scale *= 2 ** 32;
    }
    return result;
  }

  /** `random._randbelow(n)`: rejection sampling on `n.bit_length()` bits. */
  randbelow(n: number): number {
    if (n <= 0) return 0;
    const bits = Math.floor(Math.log2(n)) + 1;
    let r = this.getrandbits(bits);
    while (r >= n) r = this.getrandbits(bits);
    return r;
  }

  /** `random.sample(population, k)`, both of CPython's algorithms. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (k < 0 || k > n) throw new RangeError(`sample larger than population or is negative (k=${k}, n=${n})`);
    const result: T[] = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = population.slice();
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }

  /** `random.choices(population, k=k)` without weights. */
  choices<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    const result: T[] = new Array(k);
    for (let i = 0; i < k; i++) result[i] = population[Math.floor(this.random() * n)];
    return result;
  }

  /** `random.shuffle(x)` in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}
