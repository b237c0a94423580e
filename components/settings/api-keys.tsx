'use client';

import { formatDateTime } from '@/lib/manuals/view';
import { useState, useTransition } from 'react';
import { createKey, revokeApiKeyAction } from '@/actions/api-keys';
import type { ApiKeyView } from '@/lib/api/keys';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

export interface AuditView {
  id: number;
  keyId: string;
  tool: string;
  at: number;
  ms: number;
  outcome: string;
}

const when = (ms: number | null) => (ms ? formatDateTime(ms) : 'never');

/** Create (shown once), list and revoke API keys; the latest audited calls below. `cannotCreate`: why this user may not create keys. */
export function ApiKeys({ initial, audit, cannotCreate }: { initial: ApiKeyView[]; audit: AuditView[]; cannotCreate?: string | null }) {
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  // Revoking cannot be undone (scripts and assistants using the key stop working): asked first.
  const [confirming, setConfirming] = useState<ApiKeyView | null>(null);
  const names = new Map(keys.map((k) => [k.id, k.name]));

  const create = () =>
    start(async () => {
      setError(null);
      const r = await createKey({ name });
      if (!r.ok) return setError(r.message);
      setCreated(r.data.key);
      setKeys(r.data.keys);
      setName('');
    });

  const revoke = (id: string) => {
    setConfirming(null);
    start(async () => {
      setError(null);
      const r = await revokeApiKeyAction({ keyId: id });
      if (!r.ok) return setError(r.message);
      setKeys(r.data.keys);
    });
  };

  const input = 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';
  const button = 'rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-50';

  return (
    <section className="space-y-4" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" className="text-lg font-medium">
        API keys
      </h2>
      {cannotCreate ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="api-key-create-refused">
          {cannotCreate}
        </p>
      ) : (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            create();
          }}
        >
          <label className="sr-only" htmlFor="api-key-name">
            Key name
          </label>
          <input
            id="api-key-name"
            data-testid="api-key-name"
            className={`${input} min-w-0 flex-1`}
            placeholder="Name, e.g. Claude Desktop"
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className={button} disabled={pending} data-testid="create-api-key">
            Create key
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600" data-testid="api-key-error">
          {error}
        </p>
      )}
      {created && (
        <div className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950" data-testid="new-api-key">
          <p className="font-medium">Copy this key now: it is shown only once.</p>
          <code className="block break-all font-mono" data-testid="new-api-key-value">
            {created}
          </code>
          <button type="button" className="text-xs underline" onClick={() => void navigator.clipboard?.writeText(created)}>
            Copy
          </button>
        </div>
      )}
      {keys.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No keys yet.</p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {keys.map((k) => (
            <li key={k.id} className="flex items-center gap-3 px-3 py-2 text-sm" data-testid="api-key-item" data-revoked={k.revokedAt ? 'true' : 'false'}>
              <div className="min-w-0 flex-1">
                <div className="font-medium">{k.name}</div>
                <div className="text-xs text-zinc-500 dark:text-zinc-400">
                  <code>{k.prefix}…</code> · created {when(k.createdAt)} · last used {when(k.lastUsedAt)}
                </div>
              </div>
              {k.revokedAt ? (
                <span className="text-xs text-zinc-500 dark:text-zinc-400">revoked {when(k.revokedAt)}</span>
              ) : (
                <button
                  type="button"
                  className="rounded-md px-2 py-1 text-xs text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950"
                  disabled={pending}
                  onClick={() => setConfirming(k)}
                  aria-label={`Revoke ${k.name}`}
                  data-testid="revoke-api-key"
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <h2 className="pt-4 text-lg font-medium">Recent API calls</h2>
      {audit.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">None yet.</p>
      ) : (
        <table className="w-full text-left text-xs" data-testid="api-audit">
          <thead className="text-zinc-500 dark:text-zinc-400">
            <tr>
              <th className="py-1">When</th>
              <th>Key</th>
              <th>Call</th>
              <th>ms</th>
              <th>Outcome</th>
            </tr>
          </thead>
          <tbody>
            {audit.map((a) => (
              <tr key={a.id} className="border-t border-zinc-100 dark:border-zinc-900">
                <td className="py-1">{when(a.at)}</td>
                <td>{names.get(a.keyId) ?? a.keyId.slice(0, 8)}</td>
                <td>
                  <code>{a.tool}</code>
                </td>
                <td>{a.ms}</td>
                <td>{a.outcome}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={!!confirming}
        title="Revoke this key?"
        message={
          confirming
            ? `“${confirming.name}” stops working at once: every assistant or script that uses it is refused. This cannot be undone; you can create a new key.`
            : ''
        }
        confirmLabel="Revoke"
        onConfirm={() => confirming && revoke(confirming.id)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
