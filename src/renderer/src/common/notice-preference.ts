const KEY = 'modus.notifyWhenTaskNeedsMe'

/** The user's "Notify me when a task needs me" choice, kept per browser profile (off until chosen). */
export function noticesEnabled(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  return storage?.getItem(KEY) === 'on'
}

export function setNoticesEnabled(on: boolean, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(KEY, on ? 'on' : 'off')
}
