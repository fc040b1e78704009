/** What the panel's toolbar can do to a mounted xterm view (registered by the lazy view). */
export interface XtermApi {
  copySelection(): Promise<boolean>
  clear(): void
  focus(): void
}

export type RegisterXterm = (terminalId: string, api: XtermApi | null) => void
