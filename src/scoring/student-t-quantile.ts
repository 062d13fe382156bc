/*
 * Student's t distribution, for the prediction bound of a calibration with few A/A rounds: with 10
 * rounds the 97.5% quantile is 2.26, not the normal 1.96, and using the normal one would let an
 * unchanged engine pass more often than the gate promises.
 */

const LANCZOS = [
  676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = 0.99999999999980993;
  LANCZOS.forEach((coefficient, index) => {
    sum += coefficient / (z + index + 1);
  });
  const t = z + LANCZOS.length - 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the regularized incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

function regularizedBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `degrees` degrees of freedom. */
export function studentTCdf(t: number, degrees: number): number {
  const tail = 0.5 * regularizedBeta(degrees / 2, 0.5, degrees / (degrees + t * t));
  return t >= 0 ? 1 - tail : tail;
}

/** The p-quantile of Student's t (p in (0.5, 1)), by bisection on the CDF: exact to ~1e-12, and only called once per card. */
export function studentTQuantile(p: number, degrees: number): number {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`expected p in (0.5, 1), got ${p}`);
  if (!(degrees >= 1)) throw new RangeError(`expected at least 1 degree of freedom, got ${degrees}`);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, degrees) < p) high *= 2;
  for (let step = 0; step < 200 && high - low > 1e-12; step++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, degrees) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
