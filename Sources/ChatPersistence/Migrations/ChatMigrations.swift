import FluentKit

/// Every migration of the chat schema, in the order they must run.
public enum ChatMigrations {
    public static let all: [any Migration] = [
        CreateMessages(),
        CreateAccounts(),
        CreateRooms(),
        AddClientMessageIDs(),
        AddRichEvents(),
        EraseDeletedTextFromSearch(),
        AddSenderVia(),
        AddRoomSequences(),
        AddPostgresSearch(),
        AddSendLimits(),
        AddNodeSharing(),
        AddAttachmentChunks(),
        AddReadOnSend(),
        AddSearchPrefixIndex(),
        SkipEmptyIndexEntries(),
        IndexSearchAfterCommit(),
        AddAdministration(),
        AddInvitations(),
        AddBlocks(),
        AddRoomRoles(),
        AddReports(),
        AddMentions(),
        AddWebPush(),
        IndexSearchTokens(),
        IndexMembershipsByUser(),
        AddBots(),
        AddIncomingWebhooks(),
        AddBotWebhooks(),
        AddPinsAndDrafts(),
        AddLinkPreviews(),
        AddForwards(),
        AddContacts(),
    ]
}
