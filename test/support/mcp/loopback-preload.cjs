// Preloaded into reference MCP servers started by tests: every listen binds 127.0.0.1 (they bind
// all interfaces by default) and the chosen port is printed for the test to read.
const net = require('node:net')
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const port = Number(args[0])
    const rest = args.slice(1).filter((arg) => typeof arg === 'function')
    this.once('listening', () => process.stderr.write(`LOOPBACK_PORT=${this.address().port}\n`))
    return listen.call(this, port, '127.0.0.1', ...rest)
  }
  return listen.apply(this, args)
}
// The parent test ends: so does this server.
const parent = process.ppid
setInterval(() => {
  try {
    process.kill(parent, 0)
  } catch {
    process.exit(0)
  }
}, 1000).unref()
