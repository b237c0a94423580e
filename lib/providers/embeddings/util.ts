import { createHash } from 'node:crypto';
import type { CallOptions } from '../types';
import { runtimeNumber, type RuntimeEnvVar } from '../../config';

/** L2-normalises in place (a zero vector stays zero) and returns the same array. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

export function chunk<T>(items: T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function throwIfAborted(opts?: CallOptions): void {
  opts?.signal?.throwIfAborted();
}

export function toFloat32(values: ArrayLike<number>): Float32Array {
  return Float32Array.from(values as ArrayLike<number>);
}

/** Positive integer from a runtime variable (lib/config/index.ts), or the fallback (bad values are ignored). */
export const envInt = (name: RuntimeEnvVar, fallback: number): number => runtimeNumber(name, fallback, { integer: true });

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return detail && !err.message.includes(detail) ? `${err.message} (${detail})` : err.message;
  }
  return String(err);
}
