// What an account may do with its own data (docs/PROTOCOL.md §10.6, §10.7): download an export of it, and block
// people. (Deleting the account signs out, so the client does that: ChatClient.deleteAccount.)

export class MyData {
  constructor(api) {
    this.api = api;
  }

  /** The export as a file: {blob, name}. */
  export() {
    return this.api.exportMyData();
  }

  /** The profiles of the people I blocked. */
  blocked() {
    return this.api.blocks();
  }

  async isBlocked(userID) {
    return (await this.blocked()).some((profile) => profile.id === userID);
  }

  block(userID) {
    return this.api.block(userID);
  }

  unblock(userID) {
    return this.api.unblock(userID);
  }
}
