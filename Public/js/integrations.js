// Programs that post into chats (docs/PROTOCOL.md §9.13, §9.14): my bots (accounts for programs, signing in with a
// token that does not expire, maybe told of the messages meant for them at a webhook URL) and a room's incoming
// webhooks (secret URLs other software posts to). Secrets (a token, a webhook's URL or signing key) are in the answer
// that makes them, once: nothing here keeps them.

export class Integrations {
  constructor(api) {
    this.api = api;
  }

  /** My active bots' profiles, by username. */
  async bots() {
    return (await this.api.bots()).bots;
  }

  /** Resolves with {id, username, token}: the token is shown this once. */
  createBot(username, displayName) {
    return this.api.createBot(username, displayName);
  }

  /** A new token ({id, username, token}); the old one stops working at once. */
  newToken(botID) {
    return this.api.newBotToken(botID);
  }

  /** Sets (or, with null, clears) where the bot is told of messages: {webhookURL, webhookSecret} when set. */
  setWebhook(botID, webhookURL) {
    return this.api.setBotWebhook(botID, webhookURL);
  }

  /** The newest 50 deliveries to the bot's webhook, newest first: [{room, seq, status, outcome, date}]. */
  async deliveries(botID) {
    return (await this.api.botDeliveries(botID)).deliveries;
  }

  deleteBot(botID) {
    return this.api.deleteBot(botID);
  }

  /** The room's incoming webhooks, oldest first, without their URLs. */
  async webhooks(roomID) {
    return (await this.api.webhooks(roomID)).webhooks;
  }

  /** Resolves with {id, name, url, createdBy, createdAt}: the URL is shown this once. */
  createWebhook(roomID, name) {
    return this.api.createWebhook(roomID, name);
  }

  deleteWebhook(roomID, webhookID) {
    return this.api.deleteWebhook(roomID, webhookID);
  }
}
