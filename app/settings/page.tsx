import type { Metadata } from 'next';
import { ApiKeys } from '@/components/settings/api-keys';
import { ProviderSummary } from '@/components/settings/provider-summary';
import { Users } from '@/components/settings/users';
import { PageFrame } from '@/components/ui/page-frame';
import { listKeys } from '@/lib/api/keys';
import { currentKeyOwner, keyCreationRefusal } from '@/lib/api/key-owner';
import { readerOrSignIn } from '@/lib/auth/access';
import { listUserViews } from '@/lib/auth/users-admin';
import { getConfig } from '@/lib/config';
import { listAudit } from '@/lib/store/api-keys';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

/**
 * One place for how the app is set up: which model, OCR engine and store serve each role (and why
 * a model was not loaded), API keys, and — on a network, for administrators — the users.
 */
export default async function SettingsPage() {
  const actor = await readerOrSignIn('/settings');
  const owner = await currentKeyOwner();
  const [keys, audit] = owner ? await Promise.all([listKeys(owner), listAudit(owner, 20)]) : [[], []];
  const cannotCreate = keyCreationRefusal(actor?.role);
  // Users exist only where sign-in is required; only administrators manage them (the routes check again).
  const network = getConfig().auth.signInRequired;
  const users = network && actor?.role === 'admin' ? await listUserViews() : null;
  return (
    <PageFrame title="Settings" description="What runs your searches and answers, API keys for assistants and scripts, and who may sign in." width="max-w-3xl">
      <ProviderSummary />
      <ApiKeys
        initial={keys}
        cannotCreate={cannotCreate}
        audit={audit.map((a) => ({ id: a.id, keyId: a.keyId, tool: a.tool, at: a.at.getTime(), ms: a.ms, outcome: a.outcome }))}
      />
      {users && actor ? (
        <Users initial={users} selfId={actor.id} />
      ) : network ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="users-admin-only">
          Users are managed by an administrator.
        </p>
      ) : null}
    </PageFrame>
  );
}
