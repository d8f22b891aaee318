// One stage prefix per message (DEVELOPERS "Errors": `stage: where: what`). A stage that adds its place to an
// error from deeper in the same stage keeps the inner message's words but not its prefix again:
// `encode: resource "r": object 0 "t": maxFaces 30000 outside 1…21845`, not `encode: … encode: … encode: …`.

/** An Error `${stage}: ${where}: ${inner}`, the inner message's own leading `${stage}: ` dropped. */
export function stageError(stage: string, where: string, inner: unknown): Error {
  const message = inner instanceof Error ? inner.message : String(inner);
  const own = `${stage}: `;
  return new Error(`${own}${where}: ${message.startsWith(own) ? message.slice(own.length) : message}`, { cause: inner });
}
