import { useId, useState, type ReactNode } from 'react'
import { noticesEnabled, setNoticesEnabled } from './notice-preference'

type Permission = NotificationPermission | 'unsupported'

const currentPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission

/**
 * "Notify me when a task needs me": turning it on asks the browser's permission (this click is the
 * user gesture it needs). The desktop app notifies from its main process instead.
 */
export function NotifyToggle(): ReactNode {
  const id = useId()
  const [permission, setPermission] = useState<Permission>(currentPermission)
  const [on, setOn] = useState(() => noticesEnabled() && currentPermission() === 'granted')
  if (window.modus) {
    return <p className="note">The app notifies you when a task needs you while its window is in the background.</p>
  }

  const toggle = async (wanted: boolean): Promise<void> => {
    if (!wanted || permission === 'unsupported') {
      setNoticesEnabled(false)
      return setOn(false)
    }
    const answer = permission === 'granted' ? 'granted' : await Notification.requestPermission()
    setPermission(answer)
    setNoticesEnabled(answer === 'granted')
    setOn(answer === 'granted')
  }

  return (
    <div className="notify-toggle">
      <input
        id={id}
        type="checkbox"
        checked={on}
        disabled={permission === 'unsupported'}
        aria-describedby={`${id}-note`}
        onChange={(event) => void toggle(event.target.checked)}
      />{' '}
      <label htmlFor={id}>Notify me when a task needs me</label>
      <p id={`${id}-note`} className="note" role="status">
        {permission === 'unsupported'
          ? 'This browser has no desktop notifications.'
          : permission === 'denied'
            ? 'Notifications are blocked for this page: allow them in the browser’s site settings.'
            : 'A task waiting for your approval, done or failed raises a notification, unless you are looking at it.'}
      </p>
    </div>
  )
}
