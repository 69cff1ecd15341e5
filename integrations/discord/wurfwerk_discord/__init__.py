"""wurfwerk for Discord: an HTTP-interactions app that rolls the five systems through the wurfwerk SDK.

Discord posts every interaction to one URL (``POST /interactions``), signed; the app answers within 3 s
and keeps nothing between requests: follow-ups that need the last roll carry it in the button or read
it from the signed card. Sessions are the exception: with ``DISCORD_SESSION_SECRET`` and
``DISCORD_SESSION_DB`` the app keeps each channel's session in its own SQLite file (``sessions``).
``create_app()`` builds the Flask app from ``DISCORD_PUBLIC_KEY``, ``WURFWERK_URL``, ``WURFWERK_API_KEY``,
``WURFWERK_PUBLIC_URL`` and ``DISCORD_API_BASE``.

What the protocol is, as looked up (Discord's developer documentation, "Interactions: Receiving and
Responding", "Application Commands", "Message Components", "Channel: Embed Limits", "Reference: Locales",
and the limits that libraries following it encode):

- Security: each request carries ``X-Signature-Ed25519`` (hex) and ``X-Signature-Timestamp``; the
  signature is Ed25519 over timestamp + raw body with the application's public key (hex, from the
  developer portal); a wrong or missing one must be answered 401 (Discord probes this when the URL is
  set). Interaction types: PING 1, APPLICATION_COMMAND 2, MESSAGE_COMPONENT 3, AUTOCOMPLETE 4,
  MODAL_SUBMIT 5. Callback types: PONG 1, CHANNEL_MESSAGE_WITH_SOURCE 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE 5, DEFERRED_UPDATE_MESSAGE 6, UPDATE_MESSAGE 7 (MODAL 9).
  The first answer within 3 s; after type 5 the interaction token is valid 15 minutes for
  ``PATCH /webhooks/{application.id}/{interaction.token}/messages/@original`` (edit the loading message),
  ``POST /webhooks/{application.id}/{interaction.token}`` (follow-up message), ``DELETE .../@original``.
  Message flag EPHEMERAL = 1 << 6 = 64.
- Messages: content ≤ 2,000 characters; ≤ 10 embeds; per embed title ≤ 256, description ≤ 4,096,
  ≤ 25 fields, field name ≤ 256 and value ≤ 1,024, footer ≤ 2,048, author name ≤ 256, and all embeds
  of a message together ≤ 6,000 characters. The embed ``url`` has no documented limit; the API refuses
  more than 2,048 (the closed discord-api-docs PR 6531 meant to document it), so the card keeps to it.
- Components: ≤ 5 action rows of ≤ 5 buttons; a button's ``custom_id`` ≤ 100 characters, label ≤ 80;
  a link button's ``url`` ≤ 512 and no ``custom_id``. A modal (callback type 9): ``custom_id`` ≤ 100,
  title ≤ 45, ≤ 5 rows of one text input (component type 4, style SHORT 1 or PARAGRAPH 2, label ≤ 45,
  placeholder ≤ 100, value ≤ 4,000); its submission (interaction type 5) carries the values and, when a
  button opened it, the ``message`` the button sat on.
- Commands (CHAT_INPUT, type 1): names match ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``
  (unicode; lowercase where a letter has a lowercase form; Discord's page now also lists ``'``),
  descriptions 1..100; ≤ 25 options per command or subcommand, required options before optional ones;
  ≤ 25 choices (name 1..100); option types SUB_COMMAND 1, SUB_COMMAND_GROUP 2, STRING 3, INTEGER 4
  (−2^53..2^53), BOOLEAN 5, USER 6, CHANNEL 7, ROLE 8, MENTIONABLE 9, NUMBER 10, ATTACHMENT 11;
  string ``max_length`` ≤ 6,000; the names, descriptions and choice names and values of one command
  together ≤ 4,000 characters (per locale). ``name_localizations`` and ``description_localizations`` are
  keyed by Discord's locales (``de``, ``en-US``, ``en-GB``, ``fr``, ``es-ES``, ``es-419``, ``pt-BR``,
  ``sv-SE``, ``zh-CN``, ``zh-TW``, ... as in ``discord.LOCALES``); the interaction's ``locale`` is the
  user's. ``integration_types``: GUILD_INSTALL 0, USER_INSTALL 1; ``contexts``: GUILD 0, BOT_DM 1,
  PRIVATE_CHANNEL 2. Registering: ``PUT /applications/{id}/commands`` (global) or
  ``PUT /applications/{id}/guilds/{guild}/commands`` replaces the whole list, with ``Authorization: Bot``.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wurfwerk_discord.app import Settings, create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """The app on first use, not on import: gunicorn imports this package for its settings
    (``wurfwerk_discord.serving``) in the master, before the gevent worker patches the standard library,
    and requests must not have imported ``ssl`` by then."""
    if name in __all__:
        from wurfwerk_discord import app

        return getattr(app, name)
    raise AttributeError(name)
