/**
 * Where things are, for the tests, the demo and the scripts: this checkout, and the temporary DSH profiles a run
 * makes. A module of its own so that a spec needing a path does not load the DSH agent loop (scripts/dsh-loop.ts).
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** This checkout: the package a profile links to, and the root every project check reads from. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Where temporary DSH profile directories of one test or demo run live. */
export const PROFILES_ROOT = join(tmpdir(), 'dsh-brake-profiles')
