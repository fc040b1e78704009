import { lazyView } from '../../components/lazy-view'

// The editor pulls in the mode schema (zod, re2js), so it is its own chunk.
const modesView = lazyView(() => import('./ModesView').then((module) => module.ModesView), 'mode editor')

export const LazyModesView = modesView.Component
export const loadModesView = modesView.preload
