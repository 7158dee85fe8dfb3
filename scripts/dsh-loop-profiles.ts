/** Where temporary DSH profile directories of one test or demo run live. */
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PROFILES_ROOT = join(tmpdir(), 'dsh-brake-profiles')
