// Globals both hosts (Node and the browser) provide, declared for tsconfig.shared.json, which loads
// neither the DOM nor the Node types: shared code may use these and nothing else of its host.

/** The WHATWG URL parser (only what shared code reads of it). */
declare class URL {
  constructor(url: string, base?: string)
  readonly protocol: string
  readonly host: string
  readonly hostname: string
  readonly pathname: string
  readonly href: string
}
