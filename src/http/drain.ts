/**
 * Whether the service is stopping. Set once by closeGracefully; the response
 * writer reads it so every answer from then on closes its connection.
 */
export interface DrainState {
  draining: boolean;
}
