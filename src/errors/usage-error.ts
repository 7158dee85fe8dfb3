/**
 * A problem with what the command was given (an unknown flag, a missing path, a config the plugin refuses): told to
 * the user in one line, without a stack trace, with exit code 2.
 * @module dsh-brake/errors/usage-error
 */
export class UsageError extends Error {}
