export * from './mode-files'
export * from './mode-store'
export * from './mode-handlers'
