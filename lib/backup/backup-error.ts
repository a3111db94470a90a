/**
 * A refusal or failure of a backup or a restore, in one line an operator can act on: the scripts print its
 * message as it is. Thrown before anything is touched wherever a check can come first.
 */
export class BackupError extends Error {}
