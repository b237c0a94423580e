/**
 * A tiny structured logger: one JSON object per line on stdout.
 *
 * Level from MC_LOG_LEVEL (debug | info | warn | error | silent); defaults to `info`, and to
 * `silent` under vitest so test output stays readable. Known secrets are scrubbed from every line
 * after serialisation, so a key echoed back inside a provider's error message never reaches a log.
 */
import { runtimeEnv } from '../../config';
import { redact } from '../redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function logLevelFromEnv(env: Record<string, string | undefined> = process.env): LogLevel {
  const raw = runtimeEnv('MC_LOG_LEVEL', env)?.toLowerCase();
  if (raw && raw in RANK) return raw as LogLevel;
  return env.VITEST ? 'silent' : 'info';
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where each line goes (without trailing newline); stdout by default. */
  write?: (line: string) => void;
  /** Strings that must never appear in output (API keys). Short strings are ignored. */
  secrets?: Array<string | undefined>;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? logLevelFromEnv();
  const write = opts.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const secrets = opts.secrets ?? [];

  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    let line: string;
    try {
      line = JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, ...fields });
    } catch {
      line = JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, note: 'fields not serialisable' });
    }
    write(redact(line, secrets));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
