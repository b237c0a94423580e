import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-3 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">This page does not exist, or it is not yours to see.</p>
      <Link href="/" className="text-brand-600 underline">
        Back to chat
      </Link>
    </div>
  );
}
