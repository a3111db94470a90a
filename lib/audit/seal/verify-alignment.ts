// Lining up a checkpoint's events, as the export gives them, against the leaves it sealed (already known
// authentic), to name what was done to the first one that does not fit: changed (its content matches no
// sealed event), removed (a sealed event has none), inserted (removing it lines the rest up), or moved
// (it matches a sealed event at another position).

/** An event as the verifier keeps it until its checkpoint's line: its leaf hash, not its content. */
export type SeenEvent = { id: string; at: number; checkpointId: string | null; leaf: string; line: number };

/** The first index where the events' leaf hashes and the sealed leaves differ; -1 when they are the same. */
function firstDifference(hashes: readonly string[], leaves: readonly string[]): number {
  const length = Math.max(hashes.length, leaves.length);
  for (let index = 0; index < length; index++) if (hashes[index] !== leaves[index]) return index;
  return -1;
}

const sameList = (a: readonly string[], b: readonly string[]) => firstDifference(a, b) === -1;

/** What went wrong where the events first differ from the leaves; null when they are exactly the leaves. */
export function alignmentProblem(events: readonly SeenEvent[], leaves: readonly string[], name: string): string | null {
  const hashes = events.map((event) => event.leaf);
  const index = firstDifference(hashes, leaves);
  if (index === -1) return null;
  const where = (position: number) => `position ${position + 1} of ${leaves.length}`;
  if (index >= events.length) return removed(events, index, name, where);
  const event = events[index]!;
  if (index >= leaves.length)
    return `event ${event.id} was inserted into ${name}, which sealed ${leaves.length} events`;
  const sealedAt = leaves.indexOf(event.leaf);
  if (sealedAt === -1) return unmatched(hashes, leaves, index, event, name);
  if (!hashes.includes(leaves[index]!)) {
    // The leaf due here has no event: removed, or changed (then some event matches no leaf).
    if (events.length < leaves.length) return removed(events, index, name, where);
    const changed = events.findIndex((candidate) => !leaves.includes(candidate.leaf));
    if (changed !== -1) return changedElsewhere(hashes, leaves, index, changed, events[changed]!, name, where);
  }
  return moved(events, hashes, leaves, index, name, where);
}

function removed(events: readonly SeenEvent[], index: number, name: string, where: (position: number) => string) {
  const before = events[index - 1];
  const after = events[index];
  const between = [before && `after event ${before.id}`, after && `before event ${after.id}`]
    .filter(Boolean)
    .join(", ");
  return `an event was removed from ${name}: the one sealed at ${where(index)}${between ? ` (${between})` : ""}`;
}

function unmatched(
  hashes: readonly string[],
  leaves: readonly string[],
  index: number,
  event: SeenEvent,
  name: string,
) {
  const withoutIt = [...hashes.slice(0, index), ...hashes.slice(index + 1)];
  if (sameList(withoutIt, leaves) || hashes.length > leaves.length)
    return `event ${event.id} was inserted into ${name}: its content matches none of the events it sealed`;
  return `event ${event.id} was changed: its content matches none of the events ${name} sealed`;
}

/**
 * The leaf due at `index` has no event, and the event at `changed` matches no leaf: when putting that
 * event back at `index` lines the rest up, it was changed and moved (its time changed, say).
 */
function changedElsewhere(
  hashes: readonly string[],
  leaves: readonly string[],
  index: number,
  changed: number,
  event: SeenEvent,
  name: string,
  where: (position: number) => string,
) {
  const others = hashes.filter((_, position) => position !== changed);
  const back = [...others.slice(0, index), leaves[index]!, ...others.slice(index)];
  if (sameList(back, leaves))
    return `event ${event.id} was changed and moved: ${name} sealed an event at ${where(index)} that is missing, and this one, at position ${changed + 1}, matches none it sealed`;
  return `event ${event.id} was changed: its content matches none of the events ${name} sealed`;
}

/** The event due at `index` is elsewhere: name the one whose move explains it (the one brought back, or the one here). */
function moved(
  events: readonly SeenEvent[],
  hashes: readonly string[],
  leaves: readonly string[],
  index: number,
  name: string,
  where: (position: number) => string,
) {
  const due = hashes.indexOf(leaves[index]!);
  if (due !== -1) {
    const back = [...hashes.slice(0, index), hashes[due]!, ...hashes.slice(index, due), ...hashes.slice(due + 1)];
    if (sameList(back, leaves))
      return `event ${events[due]!.id} was moved: ${name} sealed it at ${where(index)}, it is at position ${due + 1}`;
  }
  const event = events[index]!;
  return `event ${event.id} was moved: ${name} sealed it at ${where(leaves.indexOf(event.leaf))}, it is at position ${index + 1}`;
}
