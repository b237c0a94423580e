/** A revoked or unknown share link: said plainly, in the share shell, with no way into the app. */
export default function SharedChatNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-3 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">This shared chat does not exist, or its owner revoked the link.</p>
    </div>
  );
}
