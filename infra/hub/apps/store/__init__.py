"""Store admin: products with variants, orders with payment and fulfilment, customers, discounts."""

from pathlib import Path

from infra.hub.apps.store.router import router
from infra.hub.apps.store.seed import default_state
from infra.hub.apps.store.state import VOLATILE, StoreState
from infra.hub.registry import MockApp

APP = MockApp(
    name="store",
    title="Store Admin",
    description="Back office of an online shop: orders, fulfilment, products, customers and discounts.",
    model=StoreState,
    seed=default_state,
    volatile=VOLATILE,
    static_dir=Path(__file__).parent / "static",
    router=router,
)
