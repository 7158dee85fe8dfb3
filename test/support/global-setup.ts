/** Remove the temporary profile directories the run created (worker processes may end without an `exit` event). */
import { rmSync } from 'node:fs'
import { PROFILES_ROOT } from '../../scripts/paths.ts'

export function teardown(): void {
  rmSync(PROFILES_ROOT, { recursive: true, force: true })
}
