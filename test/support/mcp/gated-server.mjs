// An MCP server that starts only once a gate file exists (its first argument): stands for a server
// that is slow to start, without a timing in the test. Then it is the reference "everything" server.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const gate = process.argv[2]
// Its pid beside the gate, so a test can tell whether the process was ended.
writeFileSync(`${gate}.pid`, String(process.pid))
const entry = join(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js')
while (!existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 50))
process.argv = [process.argv[0], entry, 'stdio']
await import(entry)
