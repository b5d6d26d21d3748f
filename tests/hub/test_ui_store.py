"""Store admin driven in Chromium: fulfilment, discounts, payments and product edits change exactly
the fields the SCHEMA.md table lists."""

from __future__ import annotations

import pytest

from tests.hub.browser import AppSession, only_new_entry

pytestmark = pytest.mark.slow


def test_main_page_screenshot(hub, page):
    store = AppSession(hub, page, "store", "#/orders")
    assert page.locator("tr[data-order=o1003]").is_visible()
    store.screenshot()
    assert store.diff() == {}


def test_fulfil_an_order(hub, page):
    store = AppSession(hub, page, "store", "#/orders/o1003")
    page.click("button:has-text('Fulfill items')")
    dialog = "dialog[data-dialog=fulfil]"
    page.click(f"{dialog} button[type=submit]")
    assert "tracking number" in page.locator(f"{dialog} .form-error").inner_text()
    page.select_option(f"{dialog} select[name=carrier]", "FastFreight")
    page.fill(f"{dialog} input[name=tracking]", "FF-2231-889")
    page.click(f"{dialog} button[type=submit]")
    diff = store.diff()
    assert set(diff) == {"orders.o1003.fulfillment_status", "orders.o1003.fulfillments"}
    assert diff["orders.o1003.fulfillment_status"] == {"old": "unfulfilled", "new": "fulfilled"}
    [shipment] = diff["orders.o1003.fulfillments"]["new"]
    assert (shipment["carrier"], shipment["tracking"], shipment["notify_customer"]) == (
        "FastFreight",
        "FF-2231-889",
        True,
    )
    assert "FF-2231-889" in page.locator(".tracking").inner_text()


def test_apply_a_discount_code_to_an_unpaid_order(hub, page):
    store = AppSession(hub, page, "store", "#/orders/o1005")
    page.click("button:has-text('Apply discount')")
    dialog = "dialog[data-dialog=discount]"
    page.fill(f"{dialog} input[name=code]", "vip25")  # needs a 100.00 subtotal; this order has 66.00
    page.click(f"{dialog} button[type=submit]")
    assert "at least 100.00" in page.locator(f"{dialog} .form-error").inner_text()
    assert store.diff() == {}
    page.fill(f"{dialog} input[name=code]", "summer15")
    page.click(f"{dialog} button[type=submit]")
    assert store.diff() == {
        "orders.o1005.discount": {"old": None, "new": {"code": "SUMMER15", "amount": 9.9}},
        "discounts.SUMMER15.usage_count": {"old": 38, "new": 39},
    }
    assert page.locator(".totals dd.total").inner_text() == "$66.59"  # 66.00 - 9.90 + 6.00 + 8 % tax


def test_mark_an_order_as_paid(hub, page):
    store = AppSession(hub, page, "store", "#/orders/o1008")
    page.click("button:has-text('Mark as paid')")
    assert store.diff() == {"orders.o1008.financial_status": {"old": "pending", "new": "paid"}}


def test_edit_a_variant_price_and_stock(hub, page):
    store = AppSession(hub, page, "store", "#/products/p_mug")
    page.fill("tr[data-variant=v_mug_slate] input[name='price:v_mug_slate']", "19.50")
    page.fill("tr[data-variant=v_mug_slate] input[name='inventory:v_mug_slate']", "20")
    page.click("button[type=submit]:has-text('Save')")
    # updated_at is stamped as well but volatile; nothing else about the product changed.
    assert store.diff() == {
        "products.p_mug.variants.v_mug_slate.price": {"old": 18.0, "new": 19.5},
        "products.p_mug.variants.v_mug_slate.inventory": {"old": 7, "new": 20},
    }


def test_create_a_discount_code(hub, page):
    store = AppSession(hub, page, "store", "#/discounts")
    page.click("button:has-text('Create discount')")
    dialog = "dialog[data-dialog=create-discount]"
    page.fill(f"{dialog} input[name=code]", "fall20")
    page.fill(f"{dialog} input[name=value]", "20")
    page.fill(f"{dialog} input[name=starts]", "2024-09-01")
    page.click(f"{dialog} button[type=submit]")
    key, discount = only_new_entry(store.diff(), "discounts.")
    assert key == "FALL20"
    assert discount == {
        "code": "FALL20",
        "kind": "percentage",
        "value": 20,
        "status": "active",
        "min_subtotal": 0,
        "usage_count": 0,
        "usage_limit": None,
        "starts": "2024-09-01",
        "ends": None,
    }


def test_add_a_product(hub, page):
    store = AppSession(hub, page, "store", "#/products/new")
    page.fill("input[name=title]", "Linen Apron")
    page.fill("input[name=price]", "48")
    page.fill("input[name=sku]", "APR-LIN")
    page.fill("input[name=inventory]", "15")
    page.select_option("select[name=status]", "active")
    page.click("button[type=submit]:has-text('Save')")
    key, product = only_new_entry(store.diff(), "products.")
    assert key == "p_linen_apron"
    assert (product["title"], product["status"]) == ("Linen Apron", "active")
    assert list(product["variants"].values()) == [
        {
            "title": "Default",
            "sku": "APR-LIN",
            "price": 48,
            "compare_at": None,
            "inventory": 15,
            "options": {},
        }
    ]
    page.wait_for_selector("h1:text-is('Linen Apron')")
