import { afterEach } from 'vitest';

/** Environment variables a test file changes and must give back as it found them. */
export type EnvSnapshot = Record<string, string | undefined>;

/** The current values of `keys` (undefined: unset), for restoreEnv. */
export const snapshotEnv = (keys: readonly string[]): EnvSnapshot => Object.fromEntries(keys.map((k) => [k, process.env[k]]));

/** Puts the variables back as snapshotEnv saw them: a set one to its value, an unset one deleted. */
export function restoreEnv(saved: EnvSnapshot) {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/**
 * For a test file that sets or deletes `keys` as it goes: after each test, puts them back as they
 * were when the file loaded, then runs `cleanUp` (e.g. closing the providers they configured).
 */
export function restoreEnvAfterEach(keys: readonly string[], cleanUp?: () => unknown) {
  const saved = snapshotEnv(keys);
  afterEach(async () => {
    restoreEnv(saved);
    await cleanUp?.();
  });
}
