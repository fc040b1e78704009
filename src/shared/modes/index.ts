export * from './schema'
export * from './builtin'
export * from './resolve'
export * from './yaml'
