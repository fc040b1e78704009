import './command-rows.css'
import type { ReactNode } from 'react'
import type { ModelCost } from '../../../../../shared/agent/events'
import { formatUsd, totalCost } from '../../../../../shared/agent/command-rows'

const number = (count: number): string => count.toLocaleString('en-US')

/**
 * The `/cost` row: tokens in and out, cache reads and writes and the cost, per model and in total,
 * as they stood when asked. It stays in the chat and the log; the model never sees it.
 */
export function CostRow({ models }: { models: ModelCost[] }): ReactNode {
  if (models.length === 0)
    return <div className="chat-row note cost-row">Cost: no model requests in this task yet — no tokens, no cost.</div>
  const rows = models.length > 1 ? [...models, { model: 'Total', ...totalCost(models) }] : models
  return (
    <div className="chat-row">
      <table className="cost-row">
        <caption>Tokens and cost of this task so far</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Requests</th>
            <th scope="col">In</th>
            <th scope="col">Out</th>
            <th scope="col">Cache read</th>
            <th scope="col">Cache written</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.model}>
              <th scope="row">{row.model}</th>
              <td>{number(row.requests)}</td>
              <td>{number(row.inputTokens)}</td>
              <td>{number(row.outputTokens)}</td>
              <td>{number(row.cacheReadTokens)}</td>
              <td>{number(row.cacheWriteTokens)}</td>
              <td>{formatUsd(row.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
