"""Note presets: the structured scaffolds ``presetId`` puts into a capture (the spec's ten).
``blank`` has no scaffold, so a blank capture needs content. Also the provenance kinds of
``source.kind``. Plain data (no pydantic), so the command line can offer them cheaply."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preset:
    id: str
    title: str
    sections: tuple[str, ...]

    def scaffold(self) -> str:
        """The sections as Markdown headings with room to write under each."""
        return "".join(f"## {s}\n\n" for s in self.sections)


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset("blank", "Note", ()),
        Preset("project-note", "Project", ("Goal", "Status", "Next steps")),
        Preset("research-note", "Research", ("Question", "Findings", "Sources")),
        Preset("decision-note", "Decision", ("Context", "Decision", "Consequences")),
        Preset("prompt-pattern", "Prompt pattern", ("Prompt", "When to use", "Example")),
        Preset("source-summary", "Source summary", ("Summary", "Key points", "Source")),
        Preset("idea-original", "Idea", ("Idea", "Why it matters", "Next step")),
        Preset("person", "Person", ("Role", "Context", "Notes")),
        Preset("company-project", "Company project", ("Overview", "People", "Notes")),
        Preset("meeting", "Meeting", ("Attendees", "Agenda", "Notes", "Action items")),
    )
}

#: ``source.kind`` values, ``direct`` (typed or pasted by the caller) by default.
SOURCE_KINDS = ("direct", "web", "email", "meeting", "chat", "file", "api", "unknown")
