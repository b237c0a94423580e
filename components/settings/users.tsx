'use client';

import { useState, useTransition } from 'react';
import type { UserView } from '@/lib/auth/users-admin';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/** The built-in administrator (lib/store/users.ts): it cannot be demoted or removed. */
const BUILT_IN_ADMIN = 'admin';

type Role = UserView['role'];

/** One call to the admin-only /api/users routes: the JSON answer, or the server's reason as an Error. */
async function usersApi<T>(path: string, method: 'POST' | 'PATCH' | 'DELETE', body?: unknown): Promise<T | null> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const data = (await res.json().catch(() => ({}))) as { error?: string } & T;
  if (!res.ok) throw new Error(data.error ?? `The server answered ${res.status}.`);
  return data;
}

/**
 * Users (network mode, administrators only): list, add, change role, remove (asked first). Calls
 * /api/users, which checks the role again (lib/auth/users-admin.ts). The built-in `admin` and the
 * signed-in administrator's own account cannot be demoted or removed here.
 */
export function Users({ initial, selfId }: { initial: UserView[]; selfId: string }) {
  const [users, setUsers] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<UserView | null>(null);
  const [pending, start] = useTransition();
  const [form, setForm] = useState({ email: '', name: '', role: 'member' as Role, password: '' });

  const run = (what: () => Promise<string>) =>
    start(async () => {
      setError(null);
      setNotice(null);
      try {
        setNotice(await what());
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
      }
    });

  const add = () =>
    run(async () => {
      const r = await usersApi<{ user: UserView }>('/api/users', 'POST', {
        email: form.email,
        role: form.role,
        password: form.password,
        ...(form.name.trim() ? { name: form.name } : {}),
      });
      setUsers((u) => [...u, r!.user]);
      setForm({ email: '', name: '', role: 'member', password: '' });
      return `${r!.user.email} was added as ${r!.user.role === 'admin' ? 'an administrator' : 'a member'}.`;
    });

  const changeRole = (user: UserView, role: Role) =>
    run(async () => {
      const r = await usersApi<{ user: UserView }>(`/api/users/${encodeURIComponent(user.id)}`, 'PATCH', { role });
      setUsers((u) => u.map((x) => (x.id === user.id ? r!.user : x)));
      return `${user.email} is now ${role === 'admin' ? 'an administrator' : 'a member'}.`;
    });

  const remove = (user: UserView) => {
    setConfirming(null);
    run(async () => {
      await usersApi(`/api/users/${encodeURIComponent(user.id)}`, 'DELETE');
      setUsers((u) => u.filter((x) => x.id !== user.id));
      return `${user.email} was removed.`;
    });
  };

  const input = 'min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

  return (
    <section className="space-y-4" aria-labelledby="users-heading" data-testid="users">
      <div>
        <h2 id="users-heading" className="text-lg font-medium">
          Users
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Everyone signs in. Members upload, delete and unlock their own manuals; administrators manage every manual and the users.
        </p>
      </div>
      <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {users.map((u) => {
          const fixed = u.id === BUILT_IN_ADMIN || u.id === selfId;
          return (
            <li key={u.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm" data-testid="user-item" data-user-id={u.id}>
              <div className="min-w-0 flex-1">
                <div className="font-medium break-words">{u.email}</div>
                <div className="text-xs text-zinc-600 dark:text-zinc-400">
                  {u.name ? `${u.name} · ` : ''}
                  {u.id === selfId ? 'you' : u.id === BUILT_IN_ADMIN ? 'built-in administrator' : u.hasPassword ? 'password' : 'single sign-on'}
                </div>
              </div>
              <label className="sr-only" htmlFor={`role-${u.id}`}>
                Role of {u.email}
              </label>
              <select
                id={`role-${u.id}`}
                data-testid="user-role"
                className={input}
                value={u.role}
                disabled={pending || fixed}
                title={
                  fixed
                    ? u.id === selfId
                      ? 'Your own role: another administrator can change it.'
                      : 'The built-in administrator stays an administrator.'
                    : undefined
                }
                onChange={(e) => changeRole(u, e.target.value as Role)}
              >
                <option value="member">Member</option>
                <option value="admin">Administrator</option>
              </select>
              {!fixed && (
                <button
                  type="button"
                  data-testid="remove-user"
                  aria-label={`Remove ${u.email}`}
                  disabled={pending}
                  onClick={() => setConfirming(u)}
                  className="rounded-md px-2 py-1 text-xs text-red-700 hover:bg-red-50 disabled:opacity-50 dark:text-red-400 dark:hover:bg-red-950"
                >
                  Remove
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <form
        className="grid grid-cols-1 gap-2 sm:grid-cols-2"
        aria-label="Add a user"
        data-testid="add-user-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <h3 className="text-sm font-medium sm:col-span-2">Add a user</h3>
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Name or email
          <input
            required
            maxLength={320}
            className={input}
            data-testid="new-user-email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Display name (optional)
          <input maxLength={120} className={input} data-testid="new-user-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Password (at least 8 characters)
          <input
            required
            type="password"
            minLength={8}
            maxLength={1024}
            autoComplete="new-password"
            className={input}
            data-testid="new-user-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Role
          <select className={input} data-testid="new-user-role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            <option value="member">Member</option>
            <option value="admin">Administrator</option>
          </select>
        </label>
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={pending}
            data-testid="add-user"
            className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-50"
          >
            Add user
          </button>
        </div>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="users-error">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="users-notice">
          {notice}
        </p>
      )}
      <ConfirmDialog
        open={!!confirming}
        title="Remove this user?"
        message={
          confirming
            ? `${confirming.email} can no longer sign in, and their sessions end at once. Their manuals stay (administrators manage them) and their API keys stop working.`
            : ''
        }
        confirmLabel="Remove"
        onConfirm={() => confirming && remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
