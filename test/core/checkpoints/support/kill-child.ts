/* A core process taking checkpoints in a loop until the test kills it with SIGKILL. */
import { execFileSync } from 'node:child_process'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createCheckpointService } from '../../../../src/main/core/checkpoints'

const root = process.env.KILL_WORKSPACE!
const checkpoints = createCheckpointService({ dir: process.env.KILL_DATA_DIR! }).forWorkspace(root)

async function main() {
  for (let round = 0; ; round++) {
    const marker = await checkpoints.mark('t1', `turn ${round}`)
    await checkpoints.aroundCommand('t1', async () =>
      execFileSync('sh', ['-c', `for i in $(seq 1 300); do echo ${round} > gen/f$i.txt; done`], { cwd: root })
    )
    process.stdout.write(`ROUND ${round}\n`)
    // A restore in progress: atomic writes of every planned file (as the workspace writes them).
    for (const file of await checkpoints.planRestore('t1', marker.id)) {
      const full = join(root, file.path)
      await checkpoints.recordWrite('t1', full, async () => {
        if (file.target) {
          await writeFile(`${full}.tmp`, file.target)
          await rename(`${full}.tmp`, full)
        }
      })
    }
  }
}
void main()
