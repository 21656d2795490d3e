// The sink kinds, learned from the hub (GET /console/kinds.json, read from its provider registry): the console
// names no kind itself, so a kind added to the hub appears here with its own label and examples.
let loading = null;

/** Every kind, in the registry's order: {kind, label, endpointLabel, endpointExample, grantDestinationHint,
 * queue, takesGrant}. Asked once per page load. */
export function kinds() {
  loading ??= fetch('kinds.json', { headers: { Accept: 'application/json' } })
    .then((answer) => {
      if (!answer.ok) throw Object.assign(new Error(`kinds.json: ${answer.status}`), { status: answer.status });
      return answer.json();
    })
    .then((body) => body.kinds)
    .catch((err) => { loading = null; throw err; });
  return loading;
}

/** The queue kinds (a destination connected by a credential or a grant), by kind. */
export async function queueKinds() {
  return Object.fromEntries((await kinds()).filter((info) => info.queue).map((info) => [info.kind, info]));
}
