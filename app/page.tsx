import Link from 'next/link';

export default function NewChatPage() {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center gap-6 px-4 py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight" data-testid="page-title">
        Ask your manuals
      </h1>
      <p className="max-w-xl text-zinc-600 dark:text-zinc-400">
        Upload equipment manuals, then ask about specs, error codes, wiring and procedures. Every answer cites the page it came from.
      </p>
      <div
        data-testid="chat-empty-state"
        className="w-full rounded-xl border border-dashed border-zinc-300 p-8 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
      >
        <p className="mb-4">No manual is ready to chat with yet.</p>
        <Link
          href="/manuals"
          className="inline-flex items-center rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
        >
          Go to Manuals
        </Link>
      </div>
    </div>
  );
}
