"""What the standard lets a frontmatter say: keys, their allowed values, and a sentence on each, in our words.

Completion, hover and the quick fixes read from here; the lists themselves come from ``studio.core.model``
and the checks, so a value the validator accepts is exactly a value completion offers.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.checks.produced_by import KNOWN_KINDS
from studio.core.checks.unknown_keys import KNOWN_KEYS
from studio.core.model import GROUNDING_POLICIES, PROFILES, RUNTIME_MODES, STANDARD_TYPES, STATUSES, TRUST_LEVELS


@dataclass(frozen=True, slots=True)
class KeyDoc:
    """One frontmatter key: where it lives, whether it is required, and what it means."""

    path: tuple[str, ...]
    summary: str
    required: bool = False
    values: tuple[str, ...] = ()
    """The allowed values when the key is an enumeration (empty for free text)."""
    since: str = "v0.1"

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


LIST_KEYS = frozenset({("maintainers",)})
"""Keys whose value the standard defines as a list (completion opens one; a fix writes one)."""

_KEYS: tuple[KeyDoc, ...] = (
    KeyDoc(("name",), "The pack's selection key: 1-64 characters of a-z, 0-9 and '-', matching the pack's "
           "folder name.", required=True),
    KeyDoc(("description",), "The discovery contract (1-1024 characters): what the pack holds and when an agent "
           "should use it. Not marketing copy, not instructions.", required=True),
    KeyDoc(("type",), "What kind of knowledge this is: a standard type, or 'custom:<namespace>' for your own.",
           required=True, values=STANDARD_TYPES),
    KeyDoc(("status",), "The loading gate: ready loads; draft asks first; needs-review and stale warn; disputed "
           "needs confirmation; archived is hidden.", required=True, values=STATUSES),
    KeyDoc(("profile",), "Which folder holds the facts: documents/ (document-first), wiki/ (wiki-first) or both "
           "(hybrid). Missing means wiki-first, with a compatibility warning.", values=PROFILES, since="v0.6.0"),
    KeyDoc(("version",), "The pack's own version; a semantic version such as \"1.2.0\", quoted."),
    KeyDoc(("language",), "The language of the content, as a tag such as en, zh-CN or ja."),
    KeyDoc(("license",), "A licence name, or a bundled licence file such as LICENSE."),
    KeyDoc(("maintainers",), "The people or teams who review the pack, as a list."),
    KeyDoc(("scope",), "A free ownership label such as workspace, customer, product, domain or personal "
           "(not the discovery scope)."),
    KeyDoc(("trust",), "How far the content has been checked: unreviewed, user-confirmed, official (needs an "
           "approval process) or external.", values=TRUST_LEVELS),
    KeyDoc(("updated",), "The date of the last meaningful knowledge update, as YYYY-MM-DD, quoted."),
    KeyDoc(("grounding",), "The citation policy: none, recommended, or required (every important claim needs a "
           "source anchor).", values=GROUNDING_POLICIES),
    KeyDoc(("runtime",), "How the content is used at run time; holds 'mode'.", since="v0.6.0"),
    KeyDoc(("runtime", "mode"), "data: facts, SOPs and policies (the default). persona: a reference voice and "
           "boundaries, still data and never a system instruction.", values=RUNTIME_MODES, since="v0.6.0"),
    KeyDoc(("metadata",), "The standard's pointers (primaryDocument, primaryOntology, primaryAnswers, "
           "producedBy) and your own namespaced keys."),
    KeyDoc(("metadata", "primaryDocument"), "The pack-relative path of the main document under documents/; "
           "expected for document-first packs.", since="v0.6.0"),
    KeyDoc(("metadata", "primaryOntology"), "The pack-relative path of the ontology manifest, e.g. "
           "ontology/ontology.json.", since="v0.7.0"),
    KeyDoc(("metadata", "primaryAnswers"), "The pack-relative path of the main answer map, e.g. "
           "answers/questions.json.", since="v0.7.2"),
    KeyDoc(("metadata", "producedBy"), "Which Skill, tool or workflow produced the pack (kind, name, version, "
           "digest). Shown as data; never run or fetched.", since="v0.6.0"),
    KeyDoc(("metadata", "producedBy", "kind"), "How the pack was produced.", values=KNOWN_KINDS, since="v0.6.0"),
    KeyDoc(("metadata", "producedBy", "name"), "The producing Skill or tool's name.", since="v0.6.0"),
    KeyDoc(("metadata", "producedBy", "version"), "The producing Skill or tool's version.", since="v0.6.0"),
    KeyDoc(("metadata", "producedBy", "digest"), "A digest of the producer, e.g. sha256:<hex> (not verified).",
           since="v0.6.0"),
    KeyDoc(("compatibility",), "Runtime or client requirements, in under 500 characters.", since="v0.2.0"),
)
KEYS: dict[tuple[str, ...], KeyDoc] = {k.path: k for k in _KEYS}
TOP_LEVEL_KEYS: tuple[str, ...] = KNOWN_KEYS
REQUIRED_KEYS: tuple[str, ...] = tuple(k.path[0] for k in _KEYS if k.required)

TYPE_DOCS: dict[str, str] = {
    "personal-profile": "A person, expert, creator, founder or public persona.",
    "brand-product": "A brand, product or offer: positioning, facts, channels and claim boundaries.",
    "organization-knowhow": "Internal SOPs, support flows, sales playbooks and policies.",
    "domain-reference": "Stable domain knowledge, terminology or policy.",
    "research-wiki": "Evolving research notes and synthesis across sources.",
    "brand-persona": "A brand's voice, values, expression boundaries and content taboos.",
    "content-operations": "Positioning, content pillars, topic bank, calendar and performance review.",
    "private-domain-operations": "Community operations: segments, touch cadence and conversion scripts.",
    "live-commerce-operations": "Live-commerce assortment, scripts, pacing, host language and review metrics.",
    "campaign-operations": "A campaign's goals, timeline, assets, channels, budget, risks and retrospective.",
    "growth-strategy": "Growth hypotheses, metrics, channels, experiments and plans.",
    "content-ontology": "Concept maps, claim graphs, evidence constraints and coverage; needs an ontology/ folder.",
}
VALUE_DOCS: dict[tuple[str, ...], dict[str, str]] = {
    ("status",): {
        "draft": "Not reviewed yet: a client asks the user before using it.",
        "ready": "Reviewed: loads by default.",
        "needs-review": "Usable, with a warning on every use.",
        "stale": "Out of date: clients prefer newer packs and warn.",
        "disputed": "Contested: explicit user confirmation before use.",
        "archived": "Hidden from the model catalog.",
    },
    ("trust",): {
        "unreviewed": "Nobody has checked it.",
        "user-confirmed": "A user checked it.",
        "official": "Approved through the organization's process.",
        "external": "Comes from outside the organization.",
    },
    ("profile",): {
        "document-first": "documents/ holds the facts; compiled/splits/ is the runtime view.",
        "wiki-first": "wiki/ holds the facts; compiled/ views are the runtime view.",
        "hybrid": "Both documents/ and wiki/; the context map says which serves which task.",
    },
    ("grounding",): {
        "none": "No citation policy.",
        "recommended": "Cite sources where possible.",
        "required": "Every important claim needs a source anchor.",
    },
    ("runtime", "mode"): {
        "data": "Facts, SOPs and policies (the default).",
        "persona": "A reference voice with boundaries; still data, never a system instruction.",
    },
    ("type",): TYPE_DOCS,
}
ENUM_CODES: dict[str, tuple[str, ...]] = {
    "invalid-status": ("status",),
    "invalid-trust": ("trust",),
    "invalid-profile": ("profile",),
    "invalid-grounding": ("grounding",),
    "invalid-runtime-mode": ("runtime", "mode"),
    "unknown-type": ("type",),
}
"""Finding code -> the key whose value is outside its enumeration (what the enum quick fix repairs)."""
COMMON_LANGUAGES = ("en", "en-US", "en-GB", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt-BR", "it")


def key_doc(path: tuple[str, ...]) -> KeyDoc | None:
    return KEYS.get(path)


def children(parent: tuple[str, ...]) -> tuple[str, ...]:
    """The keys the standard defines directly under ``parent`` (``()`` for the top level)."""
    if not parent:
        return TOP_LEVEL_KEYS
    return tuple(k.path[-1] for k in _KEYS if k.path[:-1] == parent)


def value_doc(path: tuple[str, ...], value: str) -> str | None:
    return VALUE_DOCS.get(path, {}).get(value)
