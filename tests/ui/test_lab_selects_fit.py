"""Every choice of the lab's drop-downs reads on one line of the settings panel, in both
languages (issue 26 #21: "the trained ▼" over "Transformer")."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from attn_tui.app import AttnApp
from attn_tui.compat import SelectCurrent
from attn_tui.core.format import cell_len


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_choice_of_the_lab_selects_fits_on_one_line(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        selects = list(pilot.app.screen.query(Select))
        assert {s.id for s in selects} >= {"sentence", "cross"}
        for select in selects:
            for prompt, value in select._options:
                with select.prevent(Select.Changed):  # (the trained choice would train one)
                    select.value = value
                await pilot.pause()
                label = select.query_one(SelectCurrent).query_one("#label")
                text = str(prompt)
                assert cell_len(text) <= label.size.width, (select.id, text, label.size)
                assert label.size.height == 1, (select.id, text)
